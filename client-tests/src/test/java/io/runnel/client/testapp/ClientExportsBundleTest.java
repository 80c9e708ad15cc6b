package io.runnel.client.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundles' {@code connect} export runs the real client under node: a scripted {@code WebSocket} (node 20 has
 * none) plays the node, answering {@code hello} and the feed's {@code sub}, and a {@code fetch} that never answers
 * keeps a write pending. The script prints what the page heard and what went out; each test reads that JSON.
 */
class ClientExportsBundleTest {

  private static final String A = "0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69";

  /** The scripted node and network, then the page's steps ({@code c} is the client, {@code log} records). */
  private static final String PRELUDE = """
      const out = {sent: [], calls: [], heard: []};
      const log = (what, v) => out.heard.push([what, v]);
      const turn = () => new Promise(r => setTimeout(r, 5));
      const until = async (what, test) => { for (let i = 0; i < 2000 && !test(); i++) { await turn(); }
        if (!test()) { throw new Error('never ' + what); } };
      const last = what => { const h = out.heard.filter(e => e[0] === what);
        return h.length ? h[h.length - 1][1] : null; };
      const post = {id: '%s', org_id: 'acme', author_id: 'ada', title: 'Hi', like_count: 2, liked_by_me: false,
        created_at: '2024-01-01T00:00:00Z'};
      globalThis.WebSocket = class {
        constructor(url) { this.readyState = 0; out.sent.push('open ' + url);
          setTimeout(() => { this.readyState = 1; this.onopen(); }, 0); }
        answer(frame) { setTimeout(() => this.onmessage({data: JSON.stringify(frame)}), 0); }
        send(t) { out.sent.push(t); const f = JSON.parse(t);
          if (f.t === 'hello') { this.answer({t: 'hello', v: 1, node: 'n1', actor: 'ada', heartbeatMs: 60000,
            lsn: '000000000000000100000000'}); }
          if (f.t === 'sub' && f.q === 'liveFeed') { this.answer({t: 'snapshot', sid: f.sid,
            records: [{type: 'posts', key: post.id, row: post}],
            cursor: {qid: 'liveFeed:0123456789abcdef@-', lsn: '000000000000000200000001', at: 1}}); } }
        close(code) { out.sent.push('close ' + code); this.readyState = 3; }
      };
      globalThis.fetch = (url, init) => { out.calls.push({url, method: init.method, body: init.body});
        return new Promise(() => {}); };
      """.formatted(A);

  @Test
  void theTestAppsClientShowsTheFeedAndALikeInTheOverlayWhileItsCallIsPending(@TempDir Path dir) throws Exception {
    JsonObject out = run(dir, Path.of("target", "js", "test-app.js"), """
        const c = b.connect({url: 'https://app.example'});
        c.connection(s => log('connection', s));
        const feed = c.query('liveFeed', {orgId: 'acme'}, v => log('view', v));
        await until('online', () => last('connection').state === 'online');
        await until('ready', () => last('view').status === 'ready');
        c.outbox(s => log('outbox', s));
        const pending = c.mutate('likePost', {postId: post.id});
        let settled = false;
        pending.then(() => { settled = true; });
        log('refused', await c.mutate('likePost', {}));
        await until('sent', () => out.calls.length > 0 && last('outbox').pending.length > 0);
        log('settled', settled);
        feed.release();
        c.close();
        """);
    List<JsonValue> views = heard(out, "view");
    JsonObject last = (JsonObject) views.get(views.size() - 1);
    JsonObject outbox = (JsonObject) heard(out, "outbox").get(heard(out, "outbox").size() - 1);
    List<JsonValue> calls = ((JsonArray) out.members().get("calls")).elements();
    List<JsonValue> sent = ((JsonArray) out.members().get("sent")).elements();
    assertAll(
        () -> assertEquals("{\"status\":\"pending\",\"records\":[]}", Json.write(views.get(0)), "pending at first"),
        () -> assertEquals("ready", text(last, "status"), "ready once the snapshot came"),
        () -> assertEquals("3", Json.write(record(last).members().get("like_count")),
            "the twin's like is in the overlay: " + Json.write(last)),
        () -> assertEquals("true", Json.write(record(last).members().get("liked_by_me"))),
        () -> assertEquals(1, ((JsonArray) outbox.members().get("pending")).elements().size(),
            "the write waits in the outbox: " + Json.write(outbox)),
        () -> assertEquals(1, calls.size(), "one call went out: " + calls),
        () -> assertEquals("https://app.example/v1/mutate/likePost", text((JsonObject) calls.get(0), "url")),
        () -> assertEquals("X_INPUT_INVALID", text((JsonObject) ((JsonObject) heard(out, "refused").get(0))
            .members().get("error"), "code"), "a refused input settles the promise at once"),
        () -> assertEquals("false", Json.write(heard(out, "settled").get(0)), "the pending call has not settled"),
        () -> assertTrue(Json.write(heard(out, "connection").get(0)).contains("\"connecting\""), "connecting first"),
        () -> assertTrue(Json.write(out).contains("\"state\":\"online\""), "then online"),
        () -> assertEquals("\"open wss://app.example/v1/sync\"", Json.write(sent.get(0)), "the socket's URL"),
        () -> assertTrue(sent.get(sent.size() - 2).toString().contains("unsub"), "release unsubscribes: " + sent),
        () -> assertEquals("\"close 1000\"", Json.write(sent.get(sent.size() - 1)), "close closes the socket"));
  }

  @Test
  void theRuntimeBundlesClientRefusesAQueryAChannelAndAPresenceWatchItDoesNotKnowInTheirListeners(@TempDir Path dir)
      throws Exception {
    JsonObject out = run(dir, Path.of("target", "js", "runnel-client.js"), """
        const c = b.connect({url: 'http://localhost:8080', credentials: async ({refresh}) => 'tok'});
        c.query('liveFeed', {orgId: 'acme'}, v => log('view', v));
        c.channel('org', {orgId: 'acme'}, {onState: s => log('channel', s), presence: {name: 'Ada'}}).release();
        c.channel('org', {orgId: 'acme'}).release();
        c.presence('org', {orgId: 'acme'}, r => log('presence', r)).release();
        c.presence('org', {orgId: 'acme'}).release();
        log('topic', c.topic('org', {orgId: 'acme'}));
        await until('a ticket request', () => out.calls.length > 0);
        c.close();
        """);
    JsonObject view = (JsonObject) heard(out, "view").get(0);
    List<JsonValue> channel = heard(out, "channel");
    List<JsonValue> calls = ((JsonArray) out.members().get("calls")).elements();
    assertAll(
        () -> assertEquals("failed", text(view, "status")),
        () -> assertEquals("X_LIVE_QUERY_UNKNOWN", text((JsonObject) view.members().get("error"), "code")),
        () -> assertEquals(1, channel.size(), "a channel the bundle does not declare is one state: " + channel),
        () -> assertEquals("failed", text((JsonObject) channel.get(0), "state")),
        () -> assertEquals("X_INPUT_INVALID", text((JsonObject) ((JsonObject) channel.get(0)).members().get("error"),
            "code")),
        () -> assertEquals(1, heard(out, "presence").size(), "so is a presence watch of it: " + Json.write(out)),
        () -> assertEquals("X_INPUT_INVALID", text((JsonObject) ((JsonObject) heard(out, "presence").get(0))
            .members().get("error"), "code"), "an empty roster with the error; without a listener, nothing"),
        () -> assertEquals(List.of(JsonNull.NULL), heard(out, "topic"), "and it names no topic of it"),
        () -> assertEquals("http://localhost:8080/v1/tickets", text((JsonObject) calls.get(0), "url"),
            "a bearer token from the credentials function buys the socket a ticket"));
  }

  private static JsonObject record(JsonObject view) {
    return (JsonObject) ((JsonObject) ((JsonArray) view.members().get("records")).elements().get(0)).members()
        .get("record");
  }

  private static String text(JsonObject o, String name) {
    return ((JsonString) o.members().get(name)).value();
  }

  private static List<JsonValue> heard(JsonObject out, String what) {
    List<JsonValue> values = new ArrayList<>();
    for (JsonValue e : ((JsonArray) out.members().get("heard")).elements()) {
      List<JsonValue> pair = ((JsonArray) e).elements();
      if (pair.get(0).equals(new JsonString(what))) {
        values.add(pair.get(1));
      }
    }
    assertTrue(!values.isEmpty(), "the page heard some " + what);
    return values;
  }

  private static JsonObject run(Path dir, Path bundle, String steps) throws Exception {
    assertTrue(Files.isRegularFile(bundle), "TeaVM wrote " + bundle.toAbsolutePath() + " in process-classes");
    Path node = Path.of("/usr/bin/node");
    if (!Files.isExecutable(node)) {
      assertTrue(System.getenv("CI") == null, "node is required in CI to run the TeaVM bundles");
      assumeTrue(false, "node is not installed: the bundle compiled but was not run");
    }
    String js = PRELUDE + "const b = await import('" + bundle.toAbsolutePath().toUri() + "');\n" + steps
        + "process.stdout.write(JSON.stringify(out));\nprocess.exit(0);\n";
    Path script = dir.resolve("client.mjs");
    Files.writeString(script, js);
    Process p = new ProcessBuilder(node.toString(), script.toString()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "node finished");
    assertEquals(0, p.exitValue(), "node exit code; output:\n" + output);
    return (JsonObject) Json.parse(output);
  }
}
