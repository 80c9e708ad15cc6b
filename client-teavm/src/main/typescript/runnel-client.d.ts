// Type declarations of runnel-client.js, the Runnel client runtime (docs/client.md). An app's bundle exports the
// same functions (see test-app.d.ts). TypeDeclarationsTest fails the build when these and the Java exports drift.

/** An error: the protocol's code (X_...), what happened, what to do; a node's answer to a call adds its status. */
export interface RunnelError {
  code: string;
  cause: string;
  fix: string;
  status?: number;
}

/** A record's columns by name, as JSON gives them (int8 and numeric as strings, timestamps as ISO text). */
export type Columns = { [column: string]: any };

/** A record as the page sees it: the node's row with the overlay applied (null when its type is not in the bundle). */
export interface RecordEntry {
  type: string;
  key: string;
  record: Columns | null;
}

/** What a live query shows: pending until its snapshot arrives, ready after, failed (with why) when refused. */
export interface QueryView {
  status: 'pending' | 'ready' | 'failed';
  error?: RunnelError;
  records: RecordEntry[];
}

/** One record by its key: null when absent (or deleted); error when the type or key is refused. */
export interface RecordView {
  type: string;
  key: string;
  record: Columns | null;
  error?: RunnelError;
}

/** How a mutation ended: the node's result, or an error (no writeId when the input was refused before queueing). */
export type MutationOutcome =
  | { writeId: string; result: unknown; error?: undefined }
  | { writeId?: string; error: RunnelError; result?: undefined };

/**
 * The socket's state; epoch counts the connections; reconnectAt is when the next attempt starts (ms since 1970).
 * Online, lagMs is how far behind PostgreSQL the node is (ms) and asOf the PostgreSQL time (ms since 1970) through
 * which it holds every change, as of the node's last hello answer; both absent until the node has a position.
 */
export type ConnectionState =
  | { state: 'connecting' | 'closed'; epoch: number; reconnectAt?: undefined }
  | { state: 'online'; epoch: number; reconnectAt?: undefined; lagMs?: number; asOf?: number }
  | { state: 'offline'; epoch: number; reconnectAt: number };

/** A write not answered yet; createdAt in ms since 1970; sending while its call is in flight. */
export interface PendingWrite {
  writeId: string;
  mutator: string;
  createdAt: number;
  sending: boolean;
}

/** A write the node refused (or the client gave up on), kept until dismiss(writeId). */
export interface FailedWrite {
  writeId: string;
  mutator: string;
  error: RunnelError & { status: number };
}

/** The outbox: writes waiting, in order, and writes that failed. */
export interface OutboxState {
  pending: PendingWrite[];
  failed: FailedWrite[];
}

/** A subscription: release() ends it (a second call does nothing). */
export interface Handle {
  release(): void;
}

/**
 * A channel's state: joining until the node accepts its join (on every connection); catching-up while a records
 * channel re-reads what it missed; live; offline while the socket is down (it re-joins by itself); failed (with why)
 * when refused, for good.
 */
export type ChannelState =
  | { state: 'joining' | 'catching-up' | 'live' | 'offline'; error?: undefined }
  | { state: 'failed'; error: RunnelError };

/** A member of a channel's roster: its key (the actor's), the meta it announced, since when (ms since 1970). */
export interface PresenceMember {
  key: string;
  meta: { [name: string]: any };
  since: number;
}

/** A channel's roster: at most 256 members listed, total counting all of them. */
export interface Roster {
  members: PresenceMember[];
  total: number;
}

/** What presence() hears: the roster, or an empty one with error when the channel, params or join were refused. */
export type PresenceView = Roster & { error?: RunnelError };

/**
 * channel's options: presence is the page's meta to announce (none: the page watches without being listed);
 * onEvent hears each broadcast event (at most once); onState and onPresence hear the state and the roster now and
 * at every change.
 */
export interface ChannelOptions {
  presence?: { [name: string]: any };
  onEvent?: (event: string, payload: unknown) => void;
  onState?: (state: ChannelState) => void;
  onPresence?: (roster: Roster) => void;
}

/** Gives a bearer token, or null for the session cookie; refresh is true when the last token was refused. */
export type CredentialsFunction = (request: { refresh: boolean }) =>
  string | null | undefined | Promise<string | null | undefined>;

/**
 * connect's options: url is the node's origin (http or https); without credentials the session cookie is sent;
 * orgId is the signed-in actor's org as the page knows it, which twins read as tx.actor().orgId() (display only).
 */
export interface ConnectOptions {
  url: string;
  credentials?: CredentialsFunction;
  orgId?: string;
}

/** The page's client: nothing it does throws, a refusal comes back as an error in a view or an outcome. */
export interface RunnelClient {
  /** Subscribes to live query name with input; onChange hears the view now and at every change. */
  query(name: string, input: unknown, onChange: (view: QueryView) => void): Handle;
  /** Watches one record of an entity by its key; onChange hears it now and at every change. */
  record(type: string, key: string, onChange: (view: RecordView) => void): Handle;
  /** Calls mutator name: its twin runs into the overlay now; the promise never rejects. */
  mutate(name: string, input: unknown): Promise<MutationOutcome>;
  /** onChange hears the connection's state now and at every change. */
  connection(onChange: (state: ConnectionState) => void): Handle;
  /** onChange hears the outbox now and at every change. */
  outbox(onChange: (state: OutboxState) => void): Handle;
  /** onError hears each error tied to no call (a write the store refused, a frame the node sent wrong). */
  errors(onError: (error: RunnelError) => void): Handle;
  /** Joins channel name's topic for params (a text value per param); release() leaves. Records go into the store. */
  channel(name: string, params: { [param: string]: string }, options?: ChannelOptions): Handle;
  /**
   * Watches channel name's roster for params without announcing the page; onPresence hears it now and at every
   * change, or an empty roster with error when the channel, its params or the join are refused; release() leaves.
   */
  presence(name: string, params: { [param: string]: string }, onPresence?: (roster: PresenceView) => void): Handle;
  /** Channel name's topic for params, each param percent-encoded as channel joins it; null when either is refused. */
  topic(name: string, params: { [param: string]: string }): string | null;
  /** Forgets failed write writeId once the page has shown it. */
  dismiss(writeId: string): void;
  /** Closes the socket and stops reconnecting; queued writes stay stored for the next page. */
  close(): void;
}

/** Builds the page's client from the browser's ports (IndexedDB, Web Locks, WebSocket, fetch) and opens its socket. */
export function connect(options: ConnectOptions): RunnelClient;
