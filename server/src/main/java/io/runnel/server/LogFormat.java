package io.runnel.server;

import io.runnel.sync.log.JsonLogFormatter;
import io.runnel.wire.ConfigInvalidException;
import java.util.Map;

/**
 * How the process writes its log lines ({@code RUNNEL_LOG_FORMAT}): {@code json}, one JSON object per line
 * ({@link JsonLogFormatter}: time, level, logger, message, request id, error id, exception), the default outside
 * development mode; or {@code text}, the JDK's plain two-line format, the default under {@code RUNNEL_DEV=true}
 * ({@code ./runnel run}), where a person reads the console.
 */
public enum LogFormat {
  /** One JSON object per line. */
  JSON,
  /** The JDK's plain text. */
  TEXT;

  /**
   * Reads {@code RUNNEL_LOG_FORMAT} from {@code env}.
   *
   * @param dev whether the process runs in development mode, which makes {@code text} the default
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) for a value other than {@code json} or {@code text},
   *     naming the variable and the fix
   */
  public static LogFormat fromEnvironment(Map<String, String> env, boolean dev) {
    String text = env.get("RUNNEL_LOG_FORMAT");
    if (text == null) {
      return dev ? TEXT : JSON;
    }
    return switch (text.trim()) {
      case "json" -> JSON;
      case "text" -> TEXT;
      default -> throw new ConfigInvalidException("RUNNEL_LOG_FORMAT is '" + text + "', neither json nor text.",
          "Set RUNNEL_LOG_FORMAT=json (one JSON object per line, for a log collector) or text, or unset it for json "
              + "(text under RUNNEL_DEV=true).");
    };
  }

  /** Puts this format on every handler of the root logger (the console handler of a default JVM). */
  public void install() {
    if (this == JSON) {
      JsonLogFormatter.installOnRoot();
    }
  }
}
