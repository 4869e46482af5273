"""The page's own styles: a muted base, light labels, and controls that yield on small screens."""

from __future__ import annotations

__all__ = ["CSS", "HATCH"]

#: The hatching that fills areas the routes avoid (an SVG pattern the polygons refer to).
HATCH = (
    '<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
    '<pattern id="routes-hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="8" height="8" fill="#ffffff" fill-opacity="0.35"/>'
    '<line x1="0" y1="0" x2="0" y2="8" stroke="#333333" stroke-width="2"/></pattern></defs></svg>'
)

CSS = """
.leaflet-tile-pane img.leaflet-tile{filter:grayscale(.65) contrast(.9) brightness(1.04)}
.routes-title{position:absolute;top:10px;left:50%;transform:translateX(-50%);z-index:1000;
  background:rgba(255,255,255,.92);padding:4px 12px;border-radius:4px;
  box-shadow:0 1px 3px rgba(0,0,0,.3);font:600 15px/1.3 system-ui,sans-serif;text-align:center;
  max-width:calc(100vw - 130px);box-sizing:border-box}
.routes-title span{display:block;font-weight:400;font-size:12px;color:#333}
.routes-legend{position:absolute;top:64px;right:10px;z-index:1000;width:264px;
  max-height:calc(100vh - 260px);overflow:auto;background:rgba(255,255,255,.94);
  padding:5px 8px;border-radius:4px;box-shadow:0 1px 3px rgba(0,0,0,.3);
  font:11.5px/1.27 system-ui,sans-serif;box-sizing:border-box}
.routes-legend:not([open]){width:auto}
.routes-legend summary{font-weight:600;font-size:12.5px;cursor:pointer}
.routes-legend ul{list-style:none;margin:2px 0;padding:0}
.routes-legend li{margin:1px 0}
.routes-legend .row li{display:inline-block;margin-right:10px}
.routes-legend p{margin:2px 0 0;color:#333}
.routes-legend i{display:inline-block;margin-right:5px;vertical-align:middle}
.routes-legend .line{width:20px;height:0}
.routes-legend .area{width:16px;height:10px;border:1.5px dashed #6B4C5B;background:#6B4C5B1F}
.routes-legend .avoid{width:16px;height:10px;border:1.5px solid #333;
  background:repeating-linear-gradient(45deg,#333 0 2px,#fff 2px 6px)}
.routes-legend .open{width:18px;border-top:3px dotted #555555}
.routes-legend .tri{width:0;height:0;border:6px solid transparent;border-bottom:10px solid #000;
  border-top-width:0}
.routes-legend .dot{width:10px;height:10px;border-radius:50%;background:#222;border:1px solid #fff}
.routes-legend .dot.small{width:7px;height:7px;background:#666}
.routes-legend .total{width:11px;height:11px;border-radius:50%;border:2px solid #3D3D3D;
  box-sizing:border-box;margin-right:3px}
.routes-legend .total.in{background:#3D3D3D38;border-width:1px;margin-left:5px}
.routes-popup h4{margin:0 0 6px;font-size:14px}
.routes-popup table{font-size:12px;border-collapse:collapse}
.routes-popup th{text-align:left;vertical-align:top;padding:1px 8px 1px 0;white-space:nowrap;
  font-weight:600;color:#444}
.routes-popup td{vertical-align:top;padding:1px 0;overflow-wrap:anywhere}
.routes-label{position:absolute;white-space:nowrap;font:500 12px/1.2 system-ui,sans-serif;
  color:#222;text-shadow:0 0 2px #fff,0 0 2px #fff,0 0 3px #fff}
.routes-label-place[data-kind]{font-weight:600}
.routes-label-area{font-style:italic;font-size:11px;color:#5A3C4B}
.routes-label-country{font-size:12px;letter-spacing:.3em;color:#7F7A88;font-weight:400}
.routes-label-corridor{font-size:11.5px;font-weight:600;background:rgba(255,255,255,.85);
  padding:0 4px;border-left:4px solid var(--routes-colour,#000);text-shadow:none}
.routes-avoid{fill:url(#routes-hatch)}
.routes-flow{animation:routes-flow 1.6s linear infinite}
@keyframes routes-flow{to{stroke-dashoffset:-20}}
@media (prefers-reduced-motion:reduce){.routes-flow{animation:none}}
.routes-arrow,.routes-incident{background:none;border:none}
.routes-search{pointer-events:none}
.routes-summary{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);
  white-space:nowrap}
.leaflet-control a:focus,.leaflet-control input:focus{outline:3px solid #E69F00}
.leaflet-bottom.leaflet-left{width:auto!important}
.routes-timebar{display:flex;align-items:center;gap:4px;padding:3px 6px;background:#fff;
  border-radius:4px;box-shadow:0 1px 5px rgba(0,0,0,.4);font:12px/1.2 system-ui,sans-serif}
.routes-timebar button{width:26px;height:24px;padding:0;border:1px solid #999;border-radius:3px;
  background:#fff;font-size:13px;line-height:1;cursor:pointer;color:#222}
.routes-timebar button:disabled{color:#aaa;cursor:default}
.routes-timebar input[type="range"]{width:150px;margin:0 2px}
.routes-timebar output{white-space:nowrap;font-weight:600;min-width:8.5em}
.routes-legend .routes-final{display:block;margin-left:25px;color:#555;font-size:10.5px}
.routes-legend li.routes-off{opacity:.45}
.routes-leaders{position:absolute;left:0;top:0;width:1px;height:1px;overflow:visible}
.routes-leader{stroke:#5A3C4B;stroke-width:1;stroke-dasharray:2 2}
.leaflet-interactive:focus{outline:none}
.leaflet-control-attribution{font-size:10px;max-width:calc(100vw - 20px)}
@media (max-width:600px){
  .routes-title{font-size:13px;padding:3px 8px;top:8px}
  .routes-title span{font-size:11px}
  .routes-legend{top:60px;right:8px;width:auto;max-width:calc(100vw - 16px);max-height:55vh}
  .routes-legend[open]{width:250px}
  .routes-timebar input[type="range"]{width:90px}
  .routes-timebar output{min-width:0}
  .routes-label{font-size:11px}
  .routes-label-corridor{font-size:10.5px;white-space:normal;width:max-content;max-width:130px}
  .routes-label-area{font-size:10.5px;white-space:normal;width:120px;text-align:center}
  .leaflet-control-attribution{font-size:9px;line-height:1.2}
}
"""
