package io.runnel.loadtest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Runnel node's counters the socket scenarios read from its {@code /metrics} (Prometheus text): resumes by path
 * ({@code runnel_resumes_total{path}}), window reads ({@code runnel_window_reads_total}) and frames dropped over a
 * socket's outbound bound ({@code runnel_frames_dropped_total}). Two readings' difference is what happened between
 * them.
 */
record NodeCounters(double deltas, double snapshots, double windowReads, double framesDropped) {

  private static final Pattern RESUMES = Pattern.compile(
      "(?m)^runnel_resumes_total\\{[^}]*path=\"(delta|snapshot)\"[^}]*\\} ([0-9.eE+-]+)$");
  private static final Pattern READS = Pattern.compile("(?m)^runnel_window_reads_total(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");
  private static final Pattern DROPPED =
      Pattern.compile("(?m)^runnel_frames_dropped_total(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");

  /** Reads the node's counters now. @throws IllegalStateException when it answers other than 200 or lacks one */
  static NodeCounters scrape(int port) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
          .build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("/metrics answered " + r.statusCode());
      }
      return parse(r.body());
    }
  }

  /** Reads the counters from Prometheus text. @throws IllegalStateException when a series is missing */
  static NodeCounters parse(String text) {
    double deltas = -1;
    double snapshots = -1;
    Matcher m = RESUMES.matcher(text);
    while (m.find()) {
      double v = Double.parseDouble(m.group(2));
      if (m.group(1).equals("delta")) {
        deltas = v;
      } else {
        snapshots = v;
      }
    }
    Matcher r = READS.matcher(text);
    Matcher d = DROPPED.matcher(text);
    if (deltas < 0 || snapshots < 0 || !r.find() || !d.find()) {
      throw new IllegalStateException("/metrics lacks runnel_resumes_total{path}, runnel_window_reads_total or"
          + " runnel_frames_dropped_total");
    }
    return new NodeCounters(deltas, snapshots, Double.parseDouble(r.group(1)), Double.parseDouble(d.group(1)));
  }
}
