/**
 * Hand-driven fakes of the client's ports, shared by the tests of every client package: a scheduler the test
 * advances, a scripted node behind the socket port, a recording HTTP port, an in-memory durable store, counting ids,
 * the tabs of one origin (a lock table and messages, delivered when the test says), the page's events, the JVM's
 * JSON, and the declarations and frames the scripted node speaks ({@link io.runnel.client.fake.Node}).
 */
package io.runnel.client.fake;
