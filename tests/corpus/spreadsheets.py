"""Excel files in memory: openpyxl and xlsxwriter."""

from __future__ import annotations

from corpus import case

CASES = [
    case("openpyxl_write_read", """
import io
from openpyxl import Workbook, load_workbook
wb = Workbook()
ws = wb.active
ws.title = "Sales"
ws.append(["region", "units"])
for row in [("north", 10), ("south", 4)]:
    ws.append(row)
buf = io.BytesIO()
wb.save(buf)
back = load_workbook(io.BytesIO(buf.getvalue()))
[back.sheetnames, [list(r) for r in back["Sales"].iter_rows(min_row=2, values_only=True)]]
""", [["Sales"], [["north", 10], ["south", 4]]]),
    case("openpyxl_formulas_kept", """
import io
from openpyxl import Workbook, load_workbook
wb = Workbook()
ws = wb.active
ws["A1"], ws["A2"], ws["A3"] = 2, 3, "=SUM(A1:A2)"
buf = io.BytesIO()
wb.save(buf)
load_workbook(buf)["Sheet"]["A3"].value
""", "=SUM(A1:A2)"),
    case("openpyxl_styles_and_widths", """
import io
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font, PatternFill
wb = Workbook()
ws = wb.active
ws["A1"] = "Header"
ws["A1"].font = Font(bold=True)
ws["A1"].fill = PatternFill("solid", fgColor="FFFF00")
ws.column_dimensions["A"].width = 30
buf = io.BytesIO()
wb.save(buf)
cell = load_workbook(buf).active["A1"]
[cell.font.b, cell.fill.fgColor.rgb, load_workbook(buf).active.column_dimensions["A"].width]
""", [True, "00FFFF00", 30.0]),
    case("openpyxl_multiple_sheets_dates", """
import io, datetime
from openpyxl import Workbook, load_workbook
wb = Workbook()
wb.active.title = "Jan"
ws = wb.create_sheet("Feb")
ws["A1"] = datetime.date(2024, 2, 29)
buf = io.BytesIO()
wb.save(buf)
back = load_workbook(buf)
[back.sheetnames, back["Feb"]["A1"].value.date().isoformat()]
""", [["Jan", "Feb"], "2024-02-29"]),
    case("openpyxl_merge_and_dimensions", """
import io
from openpyxl import Workbook, load_workbook
wb = Workbook()
ws = wb.active
for r in range(1, 4):
    ws.append([r, r * r])
ws.merge_cells("C1:D1")
buf = io.BytesIO()
wb.save(buf)
back = load_workbook(buf).active
[back.dimensions, [str(m) for m in back.merged_cells.ranges], back.max_row]
""", ["A1:D3", ["C1:D1"], 3]),
    case("xlsxwriter_then_openpyxl", """
import io
import xlsxwriter
from openpyxl import load_workbook
buf = io.BytesIO()
wb = xlsxwriter.Workbook(buf, {"in_memory": True})
ws = wb.add_worksheet("Report")
bold = wb.add_format({"bold": True})
ws.write_row(0, 0, ["item", "qty"], bold)
ws.write_row(1, 0, ["tea", 3])
ws.write_formula(2, 1, "=B2*2", None, 6)
wb.close()
sheet = load_workbook(io.BytesIO(buf.getvalue()))["Report"]
[sheet["A1"].value, sheet["A1"].font.b, sheet["B2"].value, sheet["B3"].value]
""", ["item", True, 3, "=B2*2"]),
    case("xlsxwriter_chart_file_parts", """
import io, zipfile
import xlsxwriter
buf = io.BytesIO()
wb = xlsxwriter.Workbook(buf, {"in_memory": True})
ws = wb.add_worksheet()
ws.write_column(0, 0, [1, 4, 9])
chart = wb.add_chart({"type": "line"})
chart.add_series({"values": "=Sheet1!$A$1:$A$3"})
ws.insert_chart("C1", chart)
wb.close()
sorted(n for n in zipfile.ZipFile(buf).namelist() if "chart" in n)
""", ["xl/charts/chart1.xml"]),
    case("openpyxl_read_csv_into_sheet", """
import csv, io
from openpyxl import Workbook
text = "a,b\\n1,2\\n3,4\\n"
wb = Workbook()
ws = wb.active
for row in csv.reader(io.StringIO(text)):
    ws.append([int(x) if x.isdigit() else x for x in row])
[ws.max_row, ws.max_column, sum(c.value for c in ws["B"][1:])]
""", [3, 2, 6]),
    case("openpyxl_number_formats", """
import io
from openpyxl import Workbook, load_workbook
wb = Workbook()
ws = wb.active
ws["A1"] = 0.256
ws["A1"].number_format = "0.0%"
buf = io.BytesIO()
wb.save(buf)
c = load_workbook(buf).active["A1"]
[c.value, c.number_format]
""", [0.256, "0.0%"]),
    case("openpyxl_column_letters", """
from openpyxl.utils import get_column_letter, column_index_from_string
[get_column_letter(28), column_index_from_string("AZ"), get_column_letter(703)]
""", ["AB", 52, "AAA"]),
]
