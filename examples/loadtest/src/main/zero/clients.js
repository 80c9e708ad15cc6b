// The Zero clients of ./runnel bench's scenario 7 (zero): N Zero instances in this one Node process, each its own
// user, each with one materialized view of the tenant's rows of `feed`, newest seq first, at most 20 (the query
// Runnel's clients subscribe to). Each view records, for every row it shows for the first time, the pair
// (seq, process.hrtime.bigint()) — CLOCK_MONOTONIC, the clock of the JVM that writes and times the commits.
//
// Usage: node clients.js <cacheURL> <clients> <org> <receipts file>
// It prints `ready <nanos>` once every view is complete, then answers commands read line by line on stdin:
//   clock                     -> clock <hrtime nanos>
//   settle <expected> <quiet ms> <most ms>
//                             -> settled <receipts>: waits until the views saw <expected> new rows in all, or
//                                nothing new for <quiet ms>, or <most ms> passed; writes every pair as
//                                "<seq> <nanos>" lines to the receipts file (and forgets them)
//   quit                      -> bye, after closing every Zero instance
// Any failure prints `error <what>` and exits 1.
import {createInterface} from 'node:readline';
import {writeFileSync} from 'node:fs';
import WebSocket from 'ws';
import {Zero} from '@rocicorp/zero';
import {schema} from './schema.js';

globalThis.WebSocket = WebSocket;

const [cacheURL, countText, org, receiptsFile] = process.argv.slice(2);
const count = Number(countText);
if (!cacheURL || !(count > 0) || !org || !receiptsFile) {
  console.log('error usage: node clients.js <cacheURL> <clients> <org> <receipts file>');
  process.exit(1);
}

function fail(what) {
  console.log(`error ${String(what).replace(/\n/g, ' ')}`);
  process.exit(1);
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

let receipts = [];
const clients = [];

function open(i) {
  const z = new Zero({schema, cacheURL, userID: `u${i}`, kvStore: 'mem'});
  const view = z.materialize(z.query.feed.where('org', '=', org).orderBy('seq', 'desc').limit(20));
  const seen = new Set();
  return new Promise((resolve, reject) => {
    view.addListener((rows, resultType, error) => {
      const now = process.hrtime.bigint();
      if (resultType === 'error') {
        reject(new Error(`client ${i}: query failed: ${JSON.stringify(error)}`));
        return;
      }
      for (const row of rows) {
        if (!seen.has(row.seq)) {
          seen.add(row.seq);
          receipts.push(row.seq, now);
        }
      }
      if (resultType === 'complete') {
        resolve();
      }
    });
    clients.push({z, view});
  });
}

const t0 = process.hrtime.bigint();
await Promise.all(Array.from({length: count}, (_, i) => open(i)));
receipts = [];
console.log(`ready ${process.hrtime.bigint() - t0}`);

function sleep(ms) {
  return new Promise(r => setTimeout(r, ms));
}

async function settle(expected, quietMs, mostMs) {
  const start = Date.now();
  let last = -1;
  let quietSince = Date.now();
  while (Date.now() - start < mostMs) {
    const n = receipts.length / 2;
    if (n >= expected) {
      break;
    }
    if (n !== last) {
      last = n;
      quietSince = Date.now();
    } else if (Date.now() - quietSince > quietMs) {
      break;
    }
    await sleep(20);
  }
  const lines = [];
  for (let i = 0; i < receipts.length; i += 2) {
    lines.push(`${receipts[i]} ${receipts[i + 1]}`);
  }
  writeFileSync(receiptsFile, lines.join('\n') + (lines.length ? '\n' : ''));
  const n = receipts.length / 2;
  receipts = [];
  return n;
}

const lines = createInterface({input: process.stdin});
for await (const line of lines) {
  const w = line.trim().split(' ');
  if (w[0] === 'clock') {
    console.log(`clock ${process.hrtime.bigint()}`);
  } else if (w[0] === 'settle') {
    console.log(`settled ${await settle(Number(w[1]), Number(w[2]), Number(w[3]))}`);
  } else if (w[0] === 'quit') {
    for (const {z, view} of clients) {
      view.destroy();
      await z.close();
    }
    console.log('bye');
    process.exit(0);
  } else {
    console.log(`error unknown command ${line}`);
  }
}
process.exit(0);
