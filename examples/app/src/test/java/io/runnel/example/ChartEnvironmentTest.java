package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.AppConfig;
import io.runnel.server.LogFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart ({@code helm/runnel}) and {@code docs/deploy.md} agree with the configuration the code reads: each
 * role's Deployment sets exactly the environment variables {@link AppConfig} reads for that role (its ConfigMap's keys
 * and its Secret references), the chart's Secret holds no key no role reads, and the docs and {@code values.yaml}
 * name every one. What a role reads is recorded, not listed by hand: the environment handed to
 * {@link AppConfig#fromEnvironment} and {@link LogFormat#fromEnvironment}, as {@link Main} hands it, notes every name
 * asked for.
 */
class ChartEnvironmentTest {

  static final Path CHART = Path.of("../../helm/runnel");
  static final Path DEPLOY_DOC = Path.of("../../docs/deploy.md");

  /** An environment that records every variable asked for, present or not. */
  static final class Recording extends AbstractMap<String, String> {
    final Map<String, String> values;
    final Set<String> asked = new TreeSet<>();

    Recording(Map<String, String> values) {
      this.values = values;
    }

    @Override
    public String get(Object key) {
      asked.add((String) key);
      return values.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
      asked.add((String) key);
      return values.containsKey(key);
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
      throw new AssertionError("The app asks for variables by name; it never lists the environment");
    }
  }

  static Set<String> readBy(String role) {
    Recording env = new Recording(Map.of("RUNNEL_ROLE", role, "DATABASE_URL", "postgres://u:p@db.example/board",
        "NATS_URL", "nats://nats.example:4222", "RUNNEL_JWT_SECRET", "0123456789abcdef0123456789abcdef"));
    AppConfig config = BoardApp.config(env, Path.of("/srv"));
    // What Main reads besides the configuration: the log format.
    LogFormat.fromEnvironment(env, config.dev());
    return env.asked;
  }

  static String read(Path p) throws IOException {
    return Files.readString(p);
  }

  static Set<String> matches(String text, String regex) {
    Set<String> out = new TreeSet<>();
    Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** The variables a role's pods get: its ConfigMap's data keys and the Secret keys its Deployment references. */
  static Set<String> chartSets(String role) throws IOException {
    Set<String> out = new TreeSet<>(configMapKeys(role));
    out.addAll(secretReferences(role));
    out.addAll(
        matches(read(CHART.resolve("templates/deployment-" + role + ".yaml")), "^\\s*- name: ([A-Z][A-Z0-9_]*)\\s*$"));
    return out;
  }

  static Set<String> configMapKeys(String role) throws IOException {
    String text = read(CHART.resolve("templates/configmap-" + role + ".yaml"));
    return matches(text.substring(text.indexOf("\ndata:")), "^  ([A-Z][A-Z0-9_]*):");
  }

  static Set<String> secretReferences(String role) throws IOException {
    return matches(read(CHART.resolve("templates/deployment-" + role + ".yaml")), "\"name\" \"([A-Z][A-Z0-9_]*)\"");
  }

  @Test
  void eachRolesDeploymentSetsExactlyTheVariablesThatRoleReads() throws IOException {
    assertAll(
        () -> assertEquals(readBy("sync"), chartSets("sync"), "the sync Deployment"),
        () -> assertEquals(readBy("replicator"), chartSets("replicator"), "the replicator Deployment"),
        () -> assertTrue(read(CHART.resolve("templates/configmap-sync.yaml")).contains("RUNNEL_ROLE: \"sync\"")),
        () -> assertTrue(read(CHART.resolve("templates/configmap-replicator.yaml"))
            .contains("RUNNEL_ROLE: \"replicator\"")));
  }

  @Test
  void theChartsSecretHoldsOnlyKeysSomeRoleReadsFromIt() throws IOException {
    Set<String> keys = matches(read(CHART.resolve("templates/secret.yaml")), "^  ([A-Z][A-Z0-9_]*):");
    Set<String> referenced = new TreeSet<>(secretReferences("sync"));
    referenced.addAll(secretReferences("replicator"));
    assertEquals(referenced, keys, "every key the Secret holds is referenced, and every reference is a key");
  }

  @Test
  void valuesYamlAndTheDeployDocNameEveryVariableOfEveryRole() throws IOException {
    Set<String> all = new TreeSet<>(readBy("sync"));
    all.addAll(readBy("replicator"));
    all.addAll(readBy("all"));
    String values = read(CHART.resolve("values.yaml"));
    String doc = read(DEPLOY_DOC);
    Set<String> undocumented = new TreeSet<>();
    Set<String> notInValues = new TreeSet<>();
    for (String v : all) {
      if (!doc.contains("`" + v + "`")) {
        undocumented.add(v);
      }
    }
    for (String v : chartSetsOfBoth()) {
      if (!values.contains(v) && !v.equals("RUNNEL_ROLE")) {
        notInValues.add(v);
      }
    }
    assertAll(
        () -> assertEquals(Set.of(), undocumented, "variables docs/deploy.md does not name"),
        () -> assertEquals(Set.of(), notInValues, "variables values.yaml's comments do not name"));
  }

  static Set<String> chartSetsOfBoth() throws IOException {
    Set<String> out = new TreeSet<>(chartSets("sync"));
    out.addAll(chartSets("replicator"));
    return out;
  }
}
