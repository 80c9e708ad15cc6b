/**
 * The reference app and the process that runs Runnel, whole ({@code RUNNEL_ROLE=all}: the embedded PostgreSQL by
 * default) or as one role of a deploy ({@code replicator}, {@code sync}): the schema, the app's declarations, the
 * server wiring and the static page that imports the compiled client.
 */
package io.runnel.example;
