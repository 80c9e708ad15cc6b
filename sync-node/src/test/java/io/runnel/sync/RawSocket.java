package io.runnel.sync;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A WebSocket client written by hand over TCP, for what the JDK's client cannot do: put many frames in one write,
 * or stop reading altogether (RFC 6455: client frames masked, server frames read unmasked).
 */
final class RawSocket implements AutoCloseable {

  private final Socket socket;
  private final DataInputStream in;

  private RawSocket(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
  }

  /**
   * Upgrades {@code /v1/sync} as {@code token}; a positive {@code receiveBuffer} shrinks the socket's receive buffer
   * (for a client that stops reading).
   */
  static RawSocket open(int port, String token, int receiveBuffer) throws IOException {
    Socket s = new Socket();
    if (receiveBuffer > 0) {
      s.setReceiveBufferSize(receiveBuffer);
    }
    s.connect(new InetSocketAddress("127.0.0.1", port));
    s.setSoTimeout(30_000);
    s.getOutputStream().write(("GET /v1/sync HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Authorization: Bearer " + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    RawSocket raw = new RawSocket(s);
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      head.append((char) raw.in.readUnsignedByte());
    }
    if (!head.toString().startsWith("HTTP/1.1 101")) {
      throw new IOException("The upgrade was refused: " + head);
    }
    return raw;
  }

  /** Sends every text in {@code texts} as its own masked text frame, all in one write. */
  void writeAll(List<String> texts) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] mask = {0x11, 0x22, 0x33, 0x44};
    for (String text : texts) {
      byte[] payload = text.getBytes(StandardCharsets.UTF_8);
      out.write(0x81);
      if (payload.length < 126) {
        out.write(0x80 | payload.length);
      } else {
        out.write(0x80 | 126);
        out.write(payload.length >> 8);
        out.write(payload.length & 0xff);
      }
      out.write(mask);
      for (int i = 0; i < payload.length; i++) {
        out.write(payload[i] ^ mask[i % 4]);
      }
    }
    OutputStream os = socket.getOutputStream();
    os.write(out.toByteArray());
    os.flush();
  }

  /** The next text frame the node sent (waiting up to 30 s). */
  String read() throws IOException {
    int first = in.readUnsignedByte();
    int second = in.readUnsignedByte();
    long length = second & 0x7f;
    if (length == 126) {
      length = in.readUnsignedShort();
    } else if (length == 127) {
      length = in.readLong();
    }
    byte[] payload = new byte[(int) length];
    in.readFully(payload);
    if ((first & 0x0f) != 0x1) {
      throw new IOException("Not a text frame: opcode " + (first & 0x0f));
    }
    return new String(payload, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
