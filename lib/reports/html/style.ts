/** Inline CSS of report.html: no external asset, readable printed and on screen. */
export const STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --nv:#57606a; --skip:#8c959f; --err:#8250df; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header, main { max-width: 1200px; margin: 0 auto; padding: 16px 24px; }
header { background: #fff; border-bottom: 1px solid #d0d7de; max-width: none; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 24px 0 8px; }
.banner { display: inline-block; padding: 4px 10px; border-radius: 6px; color: #fff; font-weight: 600; }
.banner.conforms { background: var(--pass); } .banner.fails { background: var(--fail); } .banner.inconclusive { background: var(--err); } .banner.partial { background: var(--warn); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0 0; }
dl.meta dt { color: #57606a; } dl.meta dd { margin: 0; word-break: break-all; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 16px 0; }
.card { border: 1px solid #d0d7de; border-radius: 8px; background: #fff; padding: 8px 14px; min-width: 110px; cursor: pointer; text-align: left; font: inherit; }
.card b { display: block; font-size: 22px; }
.card[aria-pressed="true"] { outline: 2px solid #0969da; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 8px 12px; }
.filters label { display: flex; gap: 6px; align-items: center; }
table.rules { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #d0d7de; margin-top: 8px; }
table.rules th, table.rules td { border-bottom: 1px solid #eaeef2; padding: 6px 8px; text-align: left; vertical-align: top; }
table.rules th { background: #f6f8fa; position: sticky; top: 0; }
td.id { white-space: nowrap; font-family: ui-monospace, monospace; }
.verdict { display: inline-block; border-radius: 10px; padding: 0 8px; color: #fff; font-size: 12px; white-space: nowrap; }
.v-passed { background: var(--pass); } .v-failed { background: var(--fail); } .v-warning { background: var(--warn); }
.v-not_verifiable { background: var(--nv); } .v-skipped { background: var(--skip); } .v-error { background: var(--err); }
.reason { color: #57606a; }
details { margin-top: 4px; } summary { cursor: pointer; color: #0969da; }
pre { background: #f6f8fa; border: 1px solid #eaeef2; border-radius: 6px; padding: 8px; overflow: auto; max-height: 360px; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
.exchange { border-left: 3px solid #d0d7de; padding-left: 8px; margin: 8px 0; }
.exchange.pinned { border-left-color: var(--fail); }
table.violations { border-collapse: collapse; font-size: 12px; margin: 6px 0; }
table.violations td, table.violations th { border: 1px solid #eaeef2; padding: 3px 6px; vertical-align: top; }
.muted { color: #57606a; }
ul.errors li { margin: 4px 0; }
`;
