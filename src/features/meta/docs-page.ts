/** The self-contained interactive API reference served at /docs/ (no external scripts: works on an offline LAN). */
export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>ViewStream API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#101828;color:#fff;padding:14px 24px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header h1{font-size:18px;margin:0}header input{flex:1;min-width:240px;padding:6px 10px;border-radius:6px;border:0}
header a{color:#9ecbff}main{max-width:1100px;margin:0 auto;padding:16px 24px}
details{background:#fff;border:1px solid #d9dde3;border-radius:8px;margin:8px 0}summary{padding:10px 14px;cursor:pointer;display:flex;gap:10px;align-items:center}
.m{font:600 12px monospace;padding:2px 8px;border-radius:4px;color:#fff;min-width:52px;text-align:center}
.get{background:#2f6fdb}.post{background:#1f8a4c}.patch{background:#b7791f}.put{background:#7b4bd1}.delete{background:#c53030}
.p{font-family:monospace}.s{color:#555}.body{padding:0 14px 14px}pre{background:#0f172a;color:#e2e8f0;padding:10px;border-radius:6px;overflow:auto;max-height:360px}
textarea{width:100%;min-height:90px;font-family:monospace}button{padding:6px 14px;border-radius:6px;border:0;background:#2f6fdb;color:#fff;cursor:pointer}
.scope{font:12px monospace;background:#eef2ff;padding:1px 6px;border-radius:4px}h2{margin-top:28px}
</style></head><body>
<header><h1>ViewStream API</h1><input id="key" placeholder="API key (vs_...) for Try it" autocomplete="off">
<a href="/openapi.json">openapi.json</a><a href="/openapi.yaml">yaml</a><a href="/openapi.he.json">עברית</a></header>
<main id="root">Loading…</main>
<script>
const esc=s=>String(s??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
async function main(){
  const doc=await (await fetch('/openapi.json')).json();
  const root=document.getElementById('root');
  const groups={};
  for(const [path,item] of Object.entries(doc.paths))for(const [m,op] of Object.entries(item)){(groups[(op.tags||['Other'])[0]]??=[]).push({path,m,op})}
  root.innerHTML='<p>'+esc(doc.info.description)+'</p>'+Object.entries(groups).map(([tag,ops])=>'<h2>'+esc(tag)+'</h2>'+ops.map((o,i)=>{
    const id=tag+i;const body=o.op.requestBody?.content?.['application/json']?.schema;
    return '<details><summary><span class="m '+o.m+'">'+o.m.toUpperCase()+'</span><span class="p">'+esc(o.path)+'</span><span class="s">'+esc(o.op.summary)+'</span>'+(o.op['x-required-scope']?'<span class="scope">'+esc(o.op['x-required-scope'])+'</span>':'')+'</summary><div class="body">'+
    '<p>'+esc(o.op.description||'')+'</p>'+(body?'<b>Body schema</b><pre>'+esc(JSON.stringify(body,null,2))+'</pre>':'')+
    '<b>Try it</b><div><input class="tp" data-id="'+id+'" value="'+esc(o.path)+'" style="width:60%;font-family:monospace"> '+(['post','patch','put'].includes(o.m)?'<textarea data-b="'+id+'">{}</textarea>':'')+
    '<button data-run="'+id+'" data-m="'+o.m+'">Send</button></div><pre data-out="'+id+'" hidden></pre></div></details>'}).join('')).join('');
  root.addEventListener('click',async e=>{const b=e.target.closest('[data-run]');if(!b)return;const id=b.dataset.run;
    const path=root.querySelector('[data-id="'+id+'"]').value;const ta=root.querySelector('[data-b="'+id+'"]');const out=root.querySelector('[data-out="'+id+'"]');
    const h={};const k=document.getElementById('key').value.trim();if(k)h.authorization='Bearer '+k;if(ta)h['content-type']='application/json';
    const r=await fetch(path,{method:b.dataset.m.toUpperCase(),headers:h,body:ta?ta.value:undefined});const t=await r.text();
    out.hidden=false;let pretty=t;try{pretty=JSON.stringify(JSON.parse(t),null,2)}catch{}out.textContent=r.status+' '+r.statusText+'\\n'+pretty});
}
main().catch(e=>{document.getElementById('root').textContent='Could not load the API document: '+e});
</script></body></html>`;
