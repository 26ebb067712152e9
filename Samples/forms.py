"""PDF forms for `quire form` and the markup tests (forms/): AcroForms made by ReportLab's acroform
writer (a real producer with appearance streams), an XFA-only form, and an encrypted form whose
permissions forbid filling. Run with Debian's python3 (python3-reportlab), and qpdf on PATH."""
import os
import subprocess
import sys

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdf_writer import write_pdf, stream  # noqa: E402

out = os.path.join(sys.argv[1], "forms")
os.makedirs(out, exist_ok=True)


def labelled(c, y, text):
    c.setFont("Helvetica", 12)
    c.drawString(60, y + 6, text)


def form(path):
    """Every kind of field: text, read-only text, check box, radio group, combo box, list box."""
    c = canvas.Canvas(path, pagesize=A4, invariant=1)
    c.setTitle("Quire form sample")
    f = c.acroForm
    labelled(c, 760, "Name")
    f.textfield(name="name", x=160, y=755, width=300, height=24, value="", borderWidth=1)
    labelled(c, 720, "Email")
    f.textfield(name="email", x=160, y=715, width=300, height=24, value="", borderWidth=1)
    labelled(c, 680, "Reference")
    f.textfield(name="reference", x=160, y=675, width=120, height=24, value="Q-17", fieldFlags="readOnly")
    labelled(c, 640, "I agree")
    f.checkbox(name="agree", x=160, y=635, size=20, checked=False, buttonStyle="check")
    labelled(c, 600, "Size")
    for index, size in enumerate(["small", "medium", "large"]):
        f.radio(name="size", value=size, x=160 + 60 * index, y=595, size=20, selected=(size == "medium"),
                buttonStyle="circle")
    labelled(c, 560, "Colour")
    f.choice(name="colour", x=160, y=555, width=150, height=24, value="Red", options=["Red", "Green", "Blue"])
    labelled(c, 500, "Fruit")
    f.listbox(name="fruit", x=160, y=440, width=150, height=80, value="Apple", options=["Apple", "Pear", "Plum"])
    c.showPage()
    c.save()


def twenty(path):
    """20 text fields on one page (the bench's form)."""
    c = canvas.Canvas(path, pagesize=A4, invariant=1)
    for index in range(20):
        y = 780 - 36 * index
        labelled(c, y, "Field %d" % (index + 1))
        c.acroForm.textfield(name="field%d" % (index + 1), x=160, y=y - 5, width=300, height=24, value="",
                             borderWidth=1)
    c.showPage()
    c.save()


def xfa_only(path):
    """An XFA form: the AcroForm has no fields, only the XFA packet (as LiveCycle's dynamic forms)."""
    xdp = (b'<?xml version="1.0"?><xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template '
           b'xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform name="form1"><field name="name"/>'
           b'</subform></template></xdp:xdp>')
    content = b"BT /F1 12 Tf 60 760 Td (Please wait... this is an XFA form) Tj ET"
    write_pdf(path, [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm 5 0 R /NeedsRendering true >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 7 0 R >> >> >>",
        stream(b"", content),
        b"<< /Fields [] /XFA 6 0 R >>",
        stream(b"", xdp),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ])


form(os.path.join(out, "form.pdf"))
twenty(os.path.join(out, "form-20.pdf"))
xfa_only(os.path.join(out, "xfa-only.pdf"))
# Encrypted, opens without a password, and forbids filling in and annotating.
subprocess.run(["qpdf", "--encrypt", "", "owner-secret", "256", "--form=n", "--annotate=n", "--modify=none", "--",
                os.path.join(out, "form.pdf"), os.path.join(out, "form-locked.pdf")], check=True)
