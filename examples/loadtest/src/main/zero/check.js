// Checks that node_modules holds exactly the versions package.json pins (./runnel bench's scenario 7 installs
// them with npm only when this says otherwise). Prints `ok <name>@<version> ...` or `missing <name>@<wanted> <found>`
// for the first that is not there, and exits 0 or 1.
import {readFileSync} from 'node:fs';

const wanted = JSON.parse(readFileSync('package.json', 'utf8')).dependencies;
const found = [];
for (const [name, version] of Object.entries(wanted)) {
  let have = 'none';
  try {
    have = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version;
  } catch {
    // not installed
  }
  if (have !== version) {
    console.log(`missing ${name}@${version} ${have}`);
    process.exit(1);
  }
  found.push(`${name}@${version}`);
}
console.log(`ok ${found.join(' ')} node ${process.version}`);
