#!/usr/bin/python3
"""Office files made by producers other than LibreOffice: python-docx (whose template document
was made by Microsoft Word) and XlsxWriter (which writes workbooks the way Excel does).

    /usr/bin/python3 Samples/office-others.py OUTDIR

Writes other-word.docx (a heading, a paragraph, a 3x3 table, a page break, a second page) and
other-excel.xlsx (one sheet of numbers and a formula). Debian: python3-docx, python3-xlsxwriter.
"""
import os
import sys

import docx
from docx.enum.text import WD_BREAK
import xlsxwriter


def word(path):
    document = docx.Document()
    document.core_properties.title = "Harbour Survey"
    document.core_properties.author = "Ada Byron"
    document.add_heading("Harbour Survey", level=1)
    document.add_paragraph("Tide tables for the northern quay, written by python-docx over Word's template.")
    table = document.add_table(rows=3, cols=3)
    for r in range(3):
        for c in range(3):
            table.cell(r, c).text = f"cell {r + 1}.{c + 1}"
    document.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    document.add_paragraph("Second page: soundings.")
    document.save(path)


def excel(path):
    workbook = xlsxwriter.Workbook(path)
    workbook.set_properties({"title": "Soundings", "author": "Ada Byron"})
    sheet = workbook.add_worksheet("Soundings")
    sheet.write_row(0, 0, ["Quay", "Depth (m)"])
    for row, (quay, depth) in enumerate([("North", 7.5), ("East", 5.25), ("South", 9.0)], start=1):
        sheet.write_row(row, 0, [quay, depth])
    sheet.write_formula(4, 1, "=SUM(B2:B4)", None, 21.75)
    workbook.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    word(os.path.join(sys.argv[1], "other-word.docx"))
    excel(os.path.join(sys.argv[1], "other-excel.xlsx"))
