#!/usr/bin/env python3
"""Office samples, made by LibreOffice itself (soffice, run once per format at sample-generation
time: a sample generator, not Quire's engine).

    office.py OUT                 writes OUT/office-*.{odt,docx,doc,rtf,dotx,ods,xlsx,xls,odp,pptx,ppt,odg}
                                  plus the macro, password, damaged and bomb samples
    office.py linked PORT OUT     a .docx whose image is linked from http://127.0.0.1:PORT/ (tests)

The sources are flat OpenDocument files written here: a 20-page text with a title and author,
a spreadsheet of two sheets, three slides, a drawing. Nothing here reads the network.
"""
import os, random, shutil, subprocess, sys, tempfile, zipfile

PAGES = 20
TITLE = "Quarterly Report"
AUTHOR = "Ada Lovelace"

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
      'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
      'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
      'xmlns:dc="http://purl.org/dc/elements/1.1/" '
      'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
      'xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" '
      'xmlns:xlink="http://www.w3.org/1999/xlink" '
      'xmlns:dom="http://www.w3.org/2001/xml-events" '
      'xmlns:ooo="http://openoffice.org/2004/office" office:version="1.3"')

META = (f'<office:meta><dc:title>{TITLE}</dc:title><meta:initial-creator>{AUTHOR}</meta:initial-creator>'
        f'<dc:creator>{AUTHOR}</dc:creator></office:meta>')


def report_fodt():
    body = []
    for page in range(1, PAGES + 1):
        style = ' text:style-name="Break"' if page > 1 else ''
        body.append(f'<text:h text:outline-level="1"{style}>Section {page}</text:h>')
        body.append('<text:p>' + ('The quick brown fox jumps over the lazy dog. ' * 12) + '</text:p>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:mimetype="application/vnd.oasis.opendocument.text">'
            f'{META}<office:automatic-styles><style:style style:name="Break" style:family="paragraph">'
            '<style:paragraph-properties fo:break-before="page"/></style:style></office:automatic-styles>'
            f'<office:body><office:text>{"".join(body)}</office:text></office:body></office:document>')


def long_fodt(paragraphs=4000):
    """About 440 pages (under the default limit of 500) of plain paragraphs: a document LibreOffice takes a second or more to lay out."""
    words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split()
    r = random.Random(5)
    body = "".join("<text:p>" + " ".join(r.choice(words) for _ in range(60)) + "</text:p>" for _ in range(paragraphs))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:mimetype="application/vnd.oasis.opendocument.text">'
            f'{META}<office:body><office:text>{body}</office:text></office:body></office:document>')


def sheet_fods():
    def table(name, rows):
        cells = ''.join('<table:table-row>' + ''.join(
            f'<table:table-cell office:value-type="float" office:value="{r * 10 + c}"><text:p>{r * 10 + c}</text:p></table:table-cell>'
            for c in range(4)) + '</table:table-row>' for r in range(rows))
        return f'<table:table table:name="{name}">{cells}</table:table>'
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:mimetype="application/vnd.oasis.opendocument.spreadsheet">'
            f'{META}<office:body><office:spreadsheet>{table("Costs", 8)}{table("Income", 5)}</office:spreadsheet></office:body></office:document>')


def slides_fodp():
    pages = ''.join(
        f'<draw:page draw:name="Slide {n}" draw:master-page-name="Default">'
        f'<draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="4cm"><draw:text-box><text:p>Slide {n}</text:p></draw:text-box></draw:frame>'
        '</draw:page>' for n in range(1, 4))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:mimetype="application/vnd.oasis.opendocument.presentation">'
            f'{META}<office:master-styles><style:master-page style:name="Default"/></office:master-styles>'
            f'<office:body><office:presentation>{pages}</office:presentation></office:body></office:document>')


def drawing_fodg():
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:mimetype="application/vnd.oasis.opendocument.graphics">'
            f'{META}<office:automatic-styles><style:style style:name="Red" style:family="graphic">'
            '<style:graphic-properties draw:fill="solid" draw:fill-color="#ff0000" draw:stroke="none"/></style:style></office:automatic-styles>'
            '<office:master-styles><style:master-page style:name="Default"/></office:master-styles>'
            '<office:body><office:drawing><draw:page draw:name="Page 1" draw:master-page-name="Default">'
            '<draw:rect draw:style-name="Red" svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="10cm"/>'
            '</draw:page></office:drawing></office:body></office:document>')


def macro_odt(path, marker):
    """An ODT whose Basic macro, bound to the document's load event, writes `marker` and then ends
    the office (so that LibreOffice, run as the tests' control, exits once it has run it)."""
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {NS}>'
               '<office:scripts><office:event-listeners><script:event-listener script:language="ooo:script" '
               'script:event-name="dom:load" xlink:type="simple" '
               'xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;location=document"/>'
               '</office:event-listeners></office:scripts>'
               '<office:body><office:text><text:p>This document runs a macro when it is opened.</text:p></office:text></office:body>'
               '</office:document-content>')
    module = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">\n'
              '<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">'
              f'Sub Main\n  Open "{marker}" For Output As #1\n  Print #1, "the macro ran"\n  Close #1\n  StarDesktop.terminate()\nEnd Sub\n</script:module>')
    library = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "library.dtd">\n'
               '<library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" '
               'library:readonly="false" library:passwordprotected="false"><library:element library:name="Module1"/></library:library>')
    container = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE library:libraries PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "libraries.dtd">\n'
                 '<library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink">'
                 '<library:library library:name="Standard" library:link="false"/></library:libraries>')
    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '<manifest:file-entry manifest:full-path="Basic/script-lc.xml" manifest:media-type="text/xml"/>'
                '<manifest:file-entry manifest:full-path="Basic/Standard/script-lb.xml" manifest:media-type="text/xml"/>'
                '<manifest:file-entry manifest:full-path="Basic/Standard/Module1.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
        for name, data in [("META-INF/manifest.xml", manifest), ("content.xml", content), ("Basic/script-lc.xml", container),
                           ("Basic/Standard/script-lb.xml", library), ("Basic/Standard/Module1.xml", module)]:
            z.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)


def linked_docx(port, path):
    """A .docx whose only image is linked (TargetMode External) from http://127.0.0.1:PORT/linked.png."""
    types = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default Extension="xml" ContentType="application/xml"/>'
             '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
    rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
    document_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                     '<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" '
                     f'Target="http://127.0.0.1:{port}/linked.png" TargetMode="External"/></Relationships>')
    document = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
                'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
                'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
                'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">'
                '<w:body><w:p><w:r><w:t>A document that links an image on the network.</w:t></w:r></w:p>'
                '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Picture 1"/>'
                '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>'
                '<pic:nvPicPr><pic:cNvPr id="1" name="linked.png"/><pic:cNvPicPr/></pic:nvPicPr>'
                '<pic:blipFill><a:blip r:link="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
                '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>'
                '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p><w:sectPr/></w:body></w:document>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", types)
        z.writestr("_rels/.rels", rels)
        z.writestr("word/_rels/document.xml.rels", document_rels)
        z.writestr("word/document.xml", document)


def soffice(profile, outdir, target, sources):
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                    "--convert-to", target, "--outdir", outdir] + sources,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=180)


def run_basic(profile, name, body, arguments):
    """Runs Basic module `name` (its `Sub Run`, `body` as its source) in the throw-away profile's
    library QuireSamples, with `arguments` (strings)."""
    basic = os.path.join(profile, "user", "basic", "QuireSamples")
    os.makedirs(basic, exist_ok=True)
    with open(os.path.join(basic, name + ".xba"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">\n'
                f'<script:module xmlns:script="http://openoffice.org/2000/script" script:name="{name}" script:language="StarBasic">'
                + body.replace("&", "&amp;") + '</script:module>')
    with open(os.path.join(basic, "script.xlb"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "library.dtd">\n'
                '<library:library xmlns:library="http://openoffice.org/2000/library" library:name="QuireSamples" library:readonly="false" '
                f'library:passwordprotected="false"><library:element library:name="{name}"/></library:library>')
    lc = os.path.join(profile, "user", "basic", "script.xlc")
    with open(lc, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE library:libraries PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "libraries.dtd">\n'
                '<library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink">'
                f'<library:library library:name="QuireSamples" xlink:href="$(USER)/basic/QuireSamples/script.xlb/" xlink:type="simple" library:link="false"/>'
                '</library:libraries>')
    quoted = ",".join(f'"{argument}"' for argument in arguments)
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                    f'macro:///QuireSamples.{name}.Run({quoted})'],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=180)


def protect(profile, source, target, password):
    """Saves `source` as `target` with an open password, through a Basic macro in the throw-away profile."""
    run_basic(profile, "Protect", 'Sub Run(source As String, target As String, secret As String)\n'
              '  Dim load(0) As New com.sun.star.beans.PropertyValue\n'
              '  load(0).Name = "Hidden" : load(0).Value = True\n'
              '  document = StarDesktop.loadComponentFromURL(ConvertToURL(source), "_blank", 0, load())\n'
              '  Dim save(0) As New com.sun.star.beans.PropertyValue\n'
              '  save(0).Name = "Password" : save(0).Value = secret\n'
              '  document.storeToURL(ConvertToURL(target), save())\n'
              '  document.close(True)\n'
              'End Sub\n', [source, target, password])


def writer_form(profile, target):
    """A form made with LibreOffice Writer's form controls and exported by its PDF export (issue
    36's tests): a text field FullName, a check box Subscribe, a drop-down list Colour (Red, Green,
    Blue), placed on page 1 by a Basic macro as a person would with the Form Controls bar."""
    run_basic(profile, "WriterForm", 'Sub Run(target As String)\n'
              '  Dim load(0) As New com.sun.star.beans.PropertyValue\n'
              '  load(0).Name = "Hidden" : load(0).Value = True\n'
              '  doc = StarDesktop.loadComponentFromURL("private:factory/swriter", "_blank", 0, load())\n'
              '  doc.Text.insertString(doc.Text.End, "Name" & Chr(13) & Chr(13) & "Subscribe" & Chr(13) & Chr(13) & "Colour", False)\n'
              '  names = Array("FullName", "Subscribe", "Colour")\n'
              '  kinds = Array("TextField", "CheckBox", "ListBox")\n'
              '  For i = 0 To 2\n'
              '    model = doc.createInstance("com.sun.star.form.component." & kinds(i))\n'
              '    model.Name = names(i)\n'
              '    If kinds(i) = "ListBox" Then\n'
              '      model.Dropdown = True\n'
              '      model.StringItemList = Array("Red", "Green", "Blue")\n'
              '    End If\n'
              '    shape = doc.createInstance("com.sun.star.drawing.ControlShape")\n'
              '    Dim size As New com.sun.star.awt.Size\n'
              '    size.Width = 6000 : size.Height = 800\n'
              '    Dim place As New com.sun.star.awt.Point\n'
              '    place.X = 4000 : place.Y = 300 + i * 1000\n'
              '    shape.Size = size\n'
              '    shape.AnchorType = com.sun.star.text.TextContentAnchorType.AT_PAGE\n'
              '    shape.AnchorPageNo = 1\n'
              '    shape.Position = place\n'
              '    shape.Control = model\n'
              '    doc.DrawPage.add(shape)\n'
              '  Next i\n'
              '  Dim export(0) As New com.sun.star.beans.PropertyValue\n'
              '  export(0).Name = "FilterName" : export(0).Value = "writer_pdf_Export"\n'
              '  doc.storeToURL(ConvertToURL(target), export())\n'
              '  doc.close(True)\n'
              'End Sub\n', [target])


def main(out):
    # Absolute: the Basic macro's ConvertToURL does not resolve a relative path against our
    # directory (make passes Samples/generated), and soffice then waits on an error dialog.
    out = os.path.abspath(out)
    work = tempfile.mkdtemp(prefix="quire-office-samples-")
    profile = os.path.join(work, "profile")
    try:
        sources = {"office-report.fodt": report_fodt(), "office-sheet.fods": sheet_fods(),
                   "office-slides.fodp": slides_fodp(), "office-drawing.fodg": drawing_fodg(),
                   "office-long.fodt": long_fodt()}
        for name, text in sources.items():
            with open(os.path.join(work, name), "w") as f:
                f.write(text)
        src = lambda name: os.path.join(work, name)
        text, sheet, slides, drawing = src("office-report.fodt"), src("office-sheet.fods"), src("office-slides.fodp"), src("office-drawing.fodg")
        for target, files in [("odt", [text]), ("docx", [text, src("office-long.fodt")]), ("doc", [text]), ("rtf", [text]),
                              ('dotx:MS Word 2007 XML Template', [text]),
                              ("ods", [sheet]), ("xlsx", [sheet]), ("xls", [sheet]),
                              ("odp", [slides]), ("pptx", [slides]), ("ppt", [slides]), ("odg", [drawing]),
                              ("pdf", [text, sheet, slides, drawing])]:
            soffice(profile, out if target != "pdf" else work, target, files)
        # LibreOffice's own PDF export of each source: the page counts the tests compare against.
        for name in ["office-report", "office-sheet", "office-slides", "office-drawing"]:
            shutil.copy(os.path.join(work, name + ".pdf"), os.path.join(out, name + ".reference.pdf"))
        protect(profile, os.path.join(out, "office-report.odt"), os.path.join(out, "office-password.odt"), "secret")
        os.makedirs(os.path.join(out, "forms"), exist_ok=True)
        writer_form(profile, os.path.join(out, "forms", "writer-form.pdf"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    macro_odt(os.path.join(out, "office-macro.odt"), "/tmp/quire-macro-ran")
    data = open(os.path.join(out, "office-report.docx"), "rb").read()
    with open(os.path.join(out, "office-truncated.docx"), "wb") as f:
        f.write(data[: len(data) // 2])
    with open(os.path.join(out, "office-garbage.doc"), "wb") as f:
        r = random.Random(11)
        f.write(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(r.randrange(256) for _ in range(8192)))
    # A zip bomb under an OOXML name: one entry declaring 200 MiB of zeros.
    with zipfile.ZipFile(os.path.join(out, "office-bomb.docx"), "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("word/document.xml", b"<w:document>" + bytes(200 << 20), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "linked":
        linked_docx(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "macro":
        macro_odt(sys.argv[3], sys.argv[2])
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
