// The reference renderer for tests/test_citation_styles.py: citeproc-js, the CSL processor
// Zotero runs. Reads one JSON object on stdin:
//   {"style": "<style XML>", "locales": {"en-US": "<locale XML>", ...}, "lang": "en-US",
//    "items": [CSL-JSON items]}
// and prints {"text": [entries], "html": [entries], "intext": [one per item]}: the
// bibliography of all the items (registered in the order given), and each item's
// in-text citation on its own.
"use strict";
const CSL = require("citeproc");

let input = "";
process.stdin.on("data", chunk => { input += chunk; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const byId = Object.fromEntries(job.items.map(item => [item.id, item]));
  const sys = {
    retrieveLocale: lang => job.locales[lang] || false,
    retrieveItem: id => byId[id],
  };
  const ids = job.items.map(item => item.id);
  const engine = new CSL.Engine(sys, job.style, job.lang);
  const out = {};
  for (const format of ["text", "html"]) {
    engine.setOutputFormat(format);
    engine.updateItems(ids);
    out[format] = engine.makeBibliography()[1];
  }
  engine.setOutputFormat("text");
  out.intext = ids.map(id => {
    engine.updateItems([id]);
    return engine.previewCitationCluster(
      {citationItems: [{id}], properties: {noteIndex: 0}}, [], [], "text");
  });
  process.stdout.write(JSON.stringify(out));
});
