#!/usr/bin/env python3
"""E-mail samples (mail/) made with Python's email package. Usage: mail.py OUTDIR.

  message.eml     multipart/mixed: an alternative (plain and HTML) and two attachments
                  (the sample document.pdf in base64 and a short quoted-printable text file),
                  an encoded-word subject, From, To (two), Cc and a Date
  html-only.eml   an HTML body only, with a remote image, a stylesheet link and a script that
                  must never be fetched or run
  mailbox.mbox    an mbox of one message
  nested.eml      multipart nested 200 deep (bounded walk)
  big-attachment.eml  a 20 MB attachment (measured by streaming, never decoded into memory)
  not-mail.eml    random bytes with an .eml name
  same-names.eml  attachments named alike ("a/b.txt" twice, "README" twice)
"""
import email.policy, mailbox, os, random, sys
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

out = os.path.join(sys.argv[1], "mail")
os.makedirs(out, exist_ok=True)
def write(name, data):
    with open(os.path.join(out, name), "wb") as f: f.write(data)

m = EmailMessage()
m["Subject"] = "Quarterly report — naïve café figures"
m["From"] = "Ada Lovelace <ada@example.org>"
m["To"] = "Charles Babbage <charles@example.org>, Mary Somerville <mary@example.org>"
m["Cc"] = "Team <team@example.org>"
m["Date"] = "Tue, 03 Mar 2026 14:05:00 +0100"
m.set_content("Hello Charles,\n\nthe figures are attached.\nThe engine ran all night.\n\n> Did it finish?\n\nAda\n")
m.add_alternative("<html><body><p>Hello <b>Charles</b>, HTML version.</p></body></html>", subtype="html")
pdf = open(os.path.join(sys.argv[1], "document.pdf"), "rb").read()
m.add_attachment(pdf, maintype="application", subtype="pdf", filename="report.pdf")
notes = ("Caf\u00e9 = 3.50 \u20ac\n" * 100)[:1000 - 100].encode("utf-8")
m.add_attachment(notes, maintype="text", subtype="plain", filename="notes.txt", cte="quoted-printable")
write("message.eml", m.as_bytes(policy=email.policy.SMTP))
# The decoded sizes the tests expect.
with open(os.path.join(out, "message.sizes"), "w") as f:
    f.write("report.pdf %d\nnotes.txt %d\n" % (len(pdf), len(notes)))

h = EmailMessage()
h["Subject"] = "Newsletter"
h["From"] = "news@example.com"
h["To"] = "reader@example.org"
h.set_content("<html><head><link rel=stylesheet href='http://127.0.0.1:9/style.css'>"
              "<script>document.title='ran'</script></head><body><h1>News of the week</h1>"
              "<p>First item.</p><img src='http://127.0.0.1:9/pixel.png'><p>Second item.</p></body></html>",
              subtype="html")
write("html-only.eml", h.as_bytes(policy=email.policy.SMTP))

box = mailbox.mbox(os.path.join(out, "mailbox.mbox"))
single = EmailMessage()
single["Subject"] = "From a mailbox"
single["From"] = "sender@example.org"
single["To"] = "you@example.org"
single.set_content("The only message of this mailbox.\n")
box.add(single)
box.close()

inner = MIMEText("deep inside")
for _ in range(200):
    outer = MIMEMultipart("mixed")
    outer.attach(inner)
    inner = outer
inner["Subject"] = "Nested"
inner["From"] = "deep@example.org"
write("nested.eml", inner.as_bytes())

b = EmailMessage()
b["Subject"] = "Big attachment"
b["From"] = "big@example.org"
b.set_content("See the attachment.\n")
b.add_attachment(random.Random(5).randbytes(20 << 20), maintype="application", subtype="octet-stream", filename="blob.bin")
write("big-attachment.eml", b.as_bytes(policy=email.policy.SMTP))

write("not-mail.eml", random.Random(9).randbytes(4096))

same = EmailMessage()
same["Subject"] = "Same names"
same["From"] = "twins@example.org"
same.set_content("Four attachments, two names.\n")
for name, body in [("a/b.txt", b"first"), ("a/b.txt", b"second"), ("README", b"third"), ("README", b"fourth")]:
    same.add_attachment(body, maintype="application", subtype="octet-stream", filename=name)
write("same-names.eml", same.as_bytes(policy=email.policy.SMTP))
