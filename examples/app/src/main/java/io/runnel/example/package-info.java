/**
 * The reference app and the one process that runs all of Runnel: the embedded PostgreSQL by default, the schema,
 * the app's declarations, the server wiring and the static page that imports the compiled client.
 */
package io.runnel.example;
