// Type declarations of test-app.js, the test app's bundle: the runtime's exports over its refs (the posts entity, the
// liveFeed query, the likePost mutator). An app's bundle ships the same one-line file under its own name.
export * from './runnel-client.js';
