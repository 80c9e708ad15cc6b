/**
 * The client's socket frames: {@link io.runnel.client.frame.ServerFrame} (node to client, decoded) and
 * {@link io.runnel.client.frame.ClientFrame} (client to node, encoded), both through
 * {@link io.runnel.client.frame.FrameCodec} over the {@code JsonValue} tree ({@code PROTOCOL.md}, "Socket frames").
 */
package io.runnel.client.frame;
