package io.runnel.sync;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A WebSocket client written by hand over TCP, for what the JDK's client cannot do: put many frames in one write,
 * stop reading altogether, see the status, headers and body of a refused upgrade, or send what no well-behaved client
 * sends (binary frames, text frames of raw bytes, fragments split anywhere, frames that break RFC 6455). Client frames
 * are masked, server frames read unmasked.
 */
final class RawSocket implements AutoCloseable {

  /** Opcodes (RFC 6455, 5.2). */
  static final int CONTINUATION = 0x0;
  static final int TEXT = 0x1;
  static final int BINARY = 0x2;
  static final int CLOSE = 0x8;
  static final int PING = 0x9;

  /**
   * One frame the node sent.
   *
   * @param opcode its opcode ({@link #TEXT}, {@link #CLOSE}, …)
   * @param fin whether it ends its message
   * @param payload its payload, unmasked
   */
  record Frame(int opcode, boolean fin, byte[] payload) {

    /** The payload as UTF-8 text. */
    String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }

    /** A close frame's status code, or 1005 (none given) when its payload is shorter than two bytes. */
    int closeCode() {
      return payload.length < 2 ? 1005 : ((payload[0] & 0xff) << 8) | (payload[1] & 0xff);
    }
  }

  /**
   * An upgrade's answer.
   *
   * @param status the HTTP status (101 when upgraded)
   * @param headers the response's headers, names in lower case
   * @param body the body of a refused upgrade (empty when upgraded)
   * @param socket the socket when upgraded, else null (the connection is closed)
   */
  record Upgrade(int status, Map<String, String> headers, String body, @Nullable RawSocket socket) {

    /** Closes the socket, if the upgrade opened one. */
    void close() throws IOException {
      if (socket != null) {
        socket.close();
      }
    }
  }

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

  /**
   * Tries an upgrade of {@code /v1/sync} with {@code headers} and answers whatever the node said; a positive
   * {@code receiveBuffer} shrinks the socket's receive buffer.
   */
  static Upgrade attempt(int port, Map<String, String> headers, int receiveBuffer) throws IOException {
    Socket s = new Socket();
    if (receiveBuffer > 0) {
      s.setReceiveBufferSize(receiveBuffer);
    }
    s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    s.setSoTimeout(30_000);
    StringBuilder request = new StringBuilder("GET /v1/sync HTTP/1.1\r\nHost: 127.0.0.1:" + port
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n");
    headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
    s.getOutputStream().write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
    RawSocket raw = new RawSocket(s);
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      head.append((char) raw.in.readUnsignedByte());
    }
    String[] lines = head.toString().split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> h = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        h.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
      }
    }
    if (status == 101) {
      return new Upgrade(status, h, "", raw);
    }
    byte[] body = new byte[Integer.parseInt(h.getOrDefault("content-length", "0"))];
    raw.in.readFully(body);
    s.close();
    return new Upgrade(status, h, new String(body, StandardCharsets.UTF_8), null);
  }

  /** Sends {@code text} as one masked text frame. */
  void send(String text) throws IOException {
    writeAll(List.of(text));
  }

  /** Reads what the node sent until the connection ends: "ended (EOF)" or "ended (reset …)", or "open" after 20 s. */
  String readToTheEnd() throws IOException {
    InputStream stream = socket.getInputStream();
    byte[] buf = new byte[64 * 1024];
    socket.setSoTimeout(1_000);
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    try {
      while (System.nanoTime() < deadline) {
        try {
          if (stream.read(buf) < 0) {
            return "ended (EOF)";
          }
        } catch (SocketTimeoutException e) {
          // keep reading until the deadline
        }
      }
      return "open";
    } catch (IOException e) {
      return "ended (reset: " + e.getMessage() + ")";
    } finally {
      socket.close();
    }
  }

  /** Sends every text in {@code texts} as its own masked text frame, all in one write. */
  void writeAll(List<String> texts) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String text : texts) {
      out.writeBytes(frame(TEXT, true, text.getBytes(StandardCharsets.UTF_8)));
    }
    write(out.toByteArray());
  }

  /** Sends {@code payload} as one binary frame. */
  void sendBinary(byte[] payload) throws IOException {
    write(frame(BINARY, true, payload));
  }

  /** Sends {@code bytes} as one text frame as they are, valid UTF-8 or not. */
  void sendText(byte[] bytes) throws IOException {
    write(frame(TEXT, true, bytes));
  }

  /**
   * Sends one message of {@code opcode} ({@link #TEXT} or {@link #BINARY}) as the fragments {@code parts}: the first
   * with that opcode, the rest as continuations, the last with FIN; all in one write.
   */
  void sendFragmented(int opcode, List<byte[]> parts) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < parts.size(); i++) {
      out.writeBytes(frame(i == 0 ? opcode : CONTINUATION, i == parts.size() - 1, parts.get(i)));
    }
    write(out.toByteArray());
  }

  /** The bytes of one masked client frame ({@code opcode}, FIN when {@code fin}), with the payload's real length. */
  static byte[] frame(int opcode, boolean fin, byte[] payload) {
    int n = payload.length;
    int header = n < 126 ? 2 : n < 65_536 ? 4 : 10;
    byte[] out = new byte[header + 4 + n];
    out[0] = (byte) ((fin ? 0x80 : 0) | opcode);
    if (n < 126) {
      out[1] = (byte) (0x80 | n);
    } else if (n < 65_536) {
      out[1] = (byte) (0x80 | 126);
      out[2] = (byte) (n >> 8);
      out[3] = (byte) n;
    } else {
      out[1] = (byte) (0x80 | 127);
      for (int i = 0; i < 8; i++) {
        out[2 + i] = (byte) ((long) n >>> (56 - 8 * i));
      }
    }
    byte[] mask = {0x11, 0x22, 0x33, 0x44};
    System.arraycopy(mask, 0, out, header, 4);
    for (int i = 0; i < n; i++) {
      out[header + 4 + i] = (byte) (payload[i] ^ mask[i & 3]);
    }
    return out;
  }

  /** Writes {@code bytes} as they are (frames made by {@link #frame}, or anything else), in one write. */
  void write(byte[] bytes) throws IOException {
    OutputStream os = socket.getOutputStream();
    os.write(bytes);
    os.flush();
  }

  /** The next frame the node sent, of any opcode (waiting up to the socket's read timeout). */
  Frame readFrame() throws IOException {
    int first = in.readUnsignedByte();
    int second = in.readUnsignedByte();
    long length = second & 0x7f;
    if (length == 126) {
      length = in.readUnsignedShort();
    } else if (length == 127) {
      length = in.readLong();
    }
    if (length > 64L * 1024 * 1024) {
      throw new IOException("A frame of " + length + " bytes: not a frame this node sends");
    }
    byte[] payload = new byte[(int) length];
    in.readFully(payload);
    return new Frame(first & 0x0f, (first & 0x80) != 0, payload);
  }

  /** Sets how long a read waits before it fails (0: forever). */
  void readTimeout(Duration timeout) throws IOException {
    socket.setSoTimeout((int) timeout.toMillis());
  }

  /** The next text frame the node sent (waiting up to 30 s). */
  String read() throws IOException {
    Frame f = readFrame();
    if (f.opcode() != TEXT) {
      throw new IOException("Not a text frame: opcode " + f.opcode());
    }
    return new String(f.payload(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
