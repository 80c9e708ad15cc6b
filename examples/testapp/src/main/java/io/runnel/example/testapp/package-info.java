/**
 * The browser tests' app, small but whole: client-safe declarations ({@link io.runnel.example.testapp.Notes}: notes,
 * the live query {@code notes} and the mutator {@code putNote} with its twin), the bundle's entry class
 * ({@link io.runnel.example.testapp.NotesBundle}, compiled by TeaVM to {@code notes-app.js}), the server half
 * ({@link io.runnel.example.testapp.NotesServer}), a bearer-token sign-in for tests
 * ({@link io.runnel.example.testapp.TokenIdentities}) and the page the node serves
 * ({@link io.runnel.example.testapp.NotesPage}).
 */
package io.runnel.example.testapp;
