// The Zero schema of ./runnel bench's scenario 7 (zero): the table `feed` as Runnel's RunnelNode declares it
// (seq int8 primary key, org text, body text), readable by anyone through legacy permissions, with legacy
// (client-side ZQL) queries enabled. Loaded by zero-deploy-permissions and by clients.js.
import {ANYONE_CAN, createSchema, definePermissions, number, string, table} from '@rocicorp/zero';

const feed = table('feed')
  .columns({seq: number(), org: string(), body: string()})
  .primaryKey('seq');

export const schema = createSchema({tables: [feed], enableLegacyQueries: true});

export const permissions = definePermissions(schema, () => ({
  feed: {row: {select: ANYONE_CAN}},
}));
