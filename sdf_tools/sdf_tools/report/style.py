"""The page's style sheet (inline: the page must open without a network)."""
from __future__ import annotations

CSS = """
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 18px 40px;
color:#1d2630;background:#fff}
h1{font-size:20px;margin:14px 0 0}h2{font-size:16px;margin:22px 0 6px}
h3{font-size:13px;margin:6px 0 4px;color:#455}h2 small{font-weight:normal;color:#667}
.path{color:#667;margin:2px 0;font-size:12px;word-break:break-all}.summary{margin:4px 0}
.verdicts b.valid{color:#2e7d32}.verdicts b.invalid,.verdicts b.unusable{color:#c62828}
table{border-collapse:collapse;font-size:12.5px}
td,th{padding:3px 7px;border-bottom:1px solid #e4e8ec;text-align:left;vertical-align:top}
th{background:#f1f4f7;position:sticky;top:0}
.scroll{max-height:360px;overflow:auto;border:1px solid #e4e8ec}
table.problems{width:100%}.problems tr.error td:first-child{color:#c62828;font-weight:600}
.problems tr.warning td:first-child{color:#b86e00;font-weight:600}
.problems tr.note td:first-child{color:#5c8ab8}.problems .where{font-family:monospace}
.problems a,.tree .node{cursor:pointer;color:#0b5cad}
.ok{color:#2e7d32}.muted{color:#889}.bad{color:#c62828}.pass{color:#2e7d32;white-space:nowrap}
.fail{color:#c62828;font-weight:600;white-space:nowrap}
.toolbar{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0;font-size:13px}
.row{display:flex;gap:12px;align-items:stretch}
#view{flex:1 1 62%;height:560px;min-width:300px;border:1px solid #d5dbe1;position:relative}
#view canvas{display:block}
#filter{flex:1 1 200px;max-width:320px;padding:2px 6px}
#picked{position:absolute;left:8px;top:6px;font:bold 13px monospace;color:#d04000;pointer-events:none}
#hover{position:absolute;display:none;padding:1px 5px;font:12px monospace;background:#fffe;
border:1px solid #b0bac4;pointer-events:none;white-space:nowrap}
#scale{position:absolute;right:8px;bottom:6px;font:12px monospace;color:#556;pointer-events:none}
.verdicts{display:flex;gap:24px;margin:6px 0 2px}.verdicts b.warned{color:#b86e00}
.side{flex:1 1 38%;max-width:460px;display:flex;flex-direction:column;min-width:220px}
.tree-box{overflow:auto;border:1px solid #e4e8ec;max-height:290px}
#sliders{overflow:auto;flex:1 1 auto;max-height:240px;border:1px solid #e4e8ec;padding:4px}
.slider{display:grid;grid-template-columns:minmax(80px,40%) 1fr 84px;gap:6px;align-items:center;
font-size:12px}
.slider span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.slider output{font-family:monospace;text-align:right}
.tree .node.sel text{fill:#d04000;font-weight:bold}tr.sel td{background:#fff1e6}a.sel{font-weight:bold}
.note{color:#667;font-size:12px;margin:4px 0}code{font-size:12px}
section.table{content-visibility:auto;contain-intrinsic-size:auto 420px}
table.data td{white-space:nowrap}table.data td:last-child{white-space:normal;min-width:220px}
"""
