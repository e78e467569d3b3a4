// Validates Kubernetes objects (a JSON array on stdin) against the schemas of the Kubernetes API
// (kubernetes-models) and of prometheus-operator's CRDs. Prints one line per object and exits 1
// when any object is invalid or of a kind no schema covers.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const objects = JSON.parse(readFileSync(0, "utf8"));

function modelModule(apiVersion) {
  if (apiVersion.startsWith("monitoring.coreos.com/")) {
    return require(`@kubernetes-models/prometheus-operator/${apiVersion}`);
  }
  return require(`kubernetes-models/${apiVersion}`);
}

let bad = 0;
for (const object of objects) {
  const what = `${object.apiVersion} ${object.kind} ${object.metadata?.namespace ?? "-"}/${object.metadata?.name}`;
  let Model;
  try {
    Model = modelModule(object.apiVersion)[object.kind];
  } catch {
    Model = undefined;
  }
  if (!Model) {
    console.log(`NO SCHEMA ${what}`);
    bad++;
    continue;
  }
  try {
    new Model(object).validate();
    console.log(`valid ${what}`);
  } catch (error) {
    console.log(`INVALID ${what}: ${error.message}`);
    bad++;
  }
}
process.exit(bad ? 1 : 0);
