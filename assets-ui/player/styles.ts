/** The player's stylesheet (injected once per document). Logical properties (inline-start/end) mirror everything for rtl. */
export const CSS = `
.vs-box{--vs-accent:#3b82f6;position:relative;background:#000;color:var(--vs-fg);font-family:var(--vs-font);overflow:hidden;border-radius:min(var(--vs-radius),24px);border:var(--vs-border);box-shadow:var(--vs-shadow);max-width:100%;line-height:1.2;user-select:none;-webkit-tap-highlight-color:transparent}
.vs-box *{box-sizing:border-box}
.vs-box video{display:block;width:100%;height:100%;object-fit:contain;background:#000}
.vs-box.vs-cinema{position:fixed;inset:0;z-index:2147483000;border-radius:0;width:100vw!important;max-width:none;height:100vh;aspect-ratio:auto!important}
.vs-bar{position:absolute;inset-inline:var(--vs-bar-margin);bottom:var(--vs-bar-margin);min-height:var(--vs-bar-height);display:flex;flex-direction:column;gap:4px;padding:4px 8px;background:var(--vs-bar-bg);border-radius:calc(var(--vs-radius) * .6);backdrop-filter:blur(var(--vs-blur,0));transition:opacity .25s}
.vs-box.vs-idle .vs-bar{opacity:0}
.vs-box.vs-idle{cursor:none}
.vs-row{display:flex;align-items:center;gap:4px}
.vs-grow{flex:1}
.vs-btn{all:unset;display:inline-flex;align-items:center;justify-content:center;min-width:32px;height:32px;padding:0 6px;border-radius:var(--vs-button-radius);color:var(--vs-fg);cursor:pointer;font-size:14px;font-family:inherit}
.vs-btn:hover{background:color-mix(in srgb,var(--vs-accent) 30%,transparent)}
.vs-btn:focus-visible,.vs-seek:focus-visible,.vs-vol:focus-visible,.vs-menu [role=menuitemradio]:focus-visible{outline:2px solid var(--vs-accent);outline-offset:2px}
.vs-btn svg{width:20px;height:20px;fill:currentColor}
.vs-btn[hidden],.vs-hidden{display:none!important}
.vs-time{font-variant-numeric:tabular-nums;font-size:13px;padding:0 6px;white-space:nowrap;unicode-bidi:isolate;direction:ltr}
.vs-live{font-size:12px;font-weight:700;padding:2px 6px;border-radius:3px;background:#444;color:#fff}
.vs-live.vs-at-edge{background:#dc2626}
.vs-seek{position:relative;height:16px;cursor:pointer;display:flex;align-items:center;touch-action:none}
.vs-track{position:relative;width:100%;height:var(--vs-track-height);background:var(--vs-track);border-radius:99px}
.vs-buf,.vs-fill{position:absolute;inset-block:0;inset-inline-start:0;border-radius:99px}
.vs-buf{background:color-mix(in srgb,var(--vs-fg) 35%,transparent)}
.vs-fill{background:var(--vs-accent)}
.vs-knob{position:absolute;top:50%;width:12px;height:12px;margin-inline-start:-6px;margin-top:-6px;border-radius:50%;background:var(--vs-accent)}
.vs-mark{position:absolute;top:-2px;bottom:-2px;width:3px;background:#facc15}
.vs-mark.vs-chap{background:var(--vs-fg);opacity:.8;width:2px}
.vs-preview{position:absolute;bottom:28px;transform:translateX(-50%);pointer-events:none;display:flex;flex-direction:column;align-items:center;gap:2px}
.vs-thumb{background-repeat:no-repeat;border:2px solid var(--vs-fg);border-radius:4px}
.vs-preview span{font-size:12px;background:rgba(0,0,0,.7);padding:1px 4px;border-radius:3px;direction:ltr;unicode-bidi:isolate}
.vs-vol{width:70px;accent-color:var(--vs-accent)}
.vs-menu{position:absolute;bottom:calc(var(--vs-bar-height) + var(--vs-bar-margin) + 8px);inset-inline-end:8px;min-width:160px;max-height:60%;overflow:auto;background:rgba(20,20,20,.95);color:#fff;border-radius:8px;padding:6px 0;font-size:14px;text-align:start}
.vs-menu h3{margin:4px 12px;font-size:12px;opacity:.7;font-weight:600}
.vs-menu [role=menuitemradio]{display:block;padding:6px 12px;cursor:pointer}
.vs-menu [aria-checked=true]::before{content:"✓";margin-inline-end:6px}
.vs-menu [role=menuitemradio]:hover{background:rgba(255,255,255,.12)}
.vs-overlay{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;flex-direction:column;gap:10px;background:rgba(0,0,0,.55);color:#fff;font-size:16px;text-align:center;padding:16px}
.vs-overlay.vs-ask{inset:auto;top:8px;inset-inline:8px;max-height:calc(100% - var(--vs-bar-height) - var(--vs-bar-margin) - 48px);overflow:auto;flex-direction:row;flex-wrap:wrap;gap:6px 10px;padding:8px 12px;border-radius:8px;background:rgba(0,0,0,.78);font-size:14px}
.vs-overlay.vs-ask p{margin:0;flex-basis:100%}
.vs-start{pointer-events:none}
.vs-big{all:unset;pointer-events:auto;cursor:pointer;width:72px;height:72px;border-radius:50%;background:var(--vs-accent);display:flex;align-items:center;justify-content:center}
.vs-big svg{width:36px;height:36px;fill:#fff}
.vs-logo{position:absolute;max-width:20%;max-height:15%;top:10px;inset-inline-end:10px}
.vs-logo.vs-top-start{inset-inline-end:auto;inset-inline-start:10px}
.vs-logo.vs-bottom-end{top:auto;bottom:60px}
.vs-logo.vs-bottom-start{top:auto;bottom:60px;inset-inline-end:auto;inset-inline-start:10px}
.vs-title{position:absolute;top:0;inset-inline:0;padding:10px 14px;color:#fff;background:linear-gradient(rgba(0,0,0,.6),transparent);font-size:15px;transition:opacity .25s}
.vs-box.vs-idle .vs-title{opacity:0}
.vs-narrow .vs-vol,.vs-narrow [data-vs=cinema]{display:none}
.vs-narrow .vs-btn{min-width:28px;padding:0 3px}
.vs-tile .vs-bar,.vs-tile .vs-title{display:none}
.vs-guide{position:absolute;inset-inline:10px;top:44px;display:flex;flex-direction:column;gap:2px;font-size:13px;pointer-events:none;transition:opacity .25s}
.vs-guide.vs-bottom{top:auto;bottom:calc(var(--vs-bar-height) + var(--vs-bar-margin) + 30px)}
.vs-guide span{align-self:flex-start;background:rgba(0,0,0,.65);color:#fff;padding:3px 8px;border-radius:4px}
.vs-guide b{color:var(--vs-accent);margin-inline-end:6px}
.vs-box.vs-idle .vs-guide{opacity:0}
.vs-cues{position:absolute;inset-inline:4%;bottom:calc(var(--vs-bar-height) + var(--vs-bar-margin) + 14px);display:flex;flex-direction:column;align-items:center;gap:4px;pointer-events:none;transition:bottom .25s}
.vs-box.vs-idle .vs-cues{bottom:6%}
.vs-cue{max-width:100%;background:rgba(0,0,0,.8);color:#fff;font-size:clamp(14px,3.2vmin,30px);line-height:1.35;padding:2px 10px;border-radius:4px;white-space:pre-line;text-align:center;font-family:system-ui,'Noto Sans Hebrew','Noto Sans Arabic',sans-serif}
.vs-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.vs-adlayer{position:absolute;inset:0;background:#000;z-index:5}
.vs-adlayer video{width:100%;height:100%;cursor:pointer}
.vs-skip{position:absolute;bottom:16px;inset-inline-end:16px;background:rgba(0,0,0,.75);border:1px solid #fff}
.vs-ad{position:absolute;top:10px;inset-inline-start:10px;background:#facc15;color:#000;font-size:12px;padding:2px 6px;border-radius:3px}
`;
