// The API page: lists the endpoints of /api/openapi.json, so the docs and the server cannot drift.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function show() {
  const spec = await (await fetch("/api/openapi.json")).json();
  document.querySelector("#intro").textContent = spec.info.description;
  const list = document.querySelector("#endpoints");
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const card = element("section", "card endpoint");
      const title = element("h2");
      title.append(element("span", "verb", method.toUpperCase()), " ", element("code", "", path));
      card.append(title, element("p", "summary", operation.summary), element("p", "", operation.description));
      // Request fields: a JSON body's properties, or the query parameters.
      const body = operation.requestBody?.content?.["application/json"]?.schema?.properties || {};
      const fields = Object.entries(body).map(([name, schema]) => [name, schema.description || schema.type]);
      for (const parameter of operation.parameters || []) {
        fields.push([parameter.name, parameter.description || parameter.schema.type]);
      }
      if (fields.length) {
        const table = element("dl", "facts");
        for (const [name, about] of fields) {
          const row = element("div");
          row.append(element("dt", "", name), element("dd", "", about));
          table.append(row);
        }
        card.append(table);
      }
      list.append(card);
    }
  }
}

show();
