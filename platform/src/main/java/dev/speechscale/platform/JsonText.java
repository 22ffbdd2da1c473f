package dev.speechscale.platform;

/**
 * JSON string literals written by hand, where a message is built as text (the speech-server's
 * request messages, the event log's lines, the local platform's error bodies): one escaping, per
 * RFC 8259, for all of them.
 */
public final class JsonText {
  private JsonText() {}

  /** {@code s} as a JSON string literal, quotes included. */
  public static String quoted(String s) {
    return appendQuoted(new StringBuilder(s.length() + 2), s).toString();
  }

  /**
   * Appends {@code s} to {@code b} as a JSON string literal: the quote and the backslash escaped,
   * newline, carriage return and tab by their short escapes, the other control characters as a
   * backslash, {@code u} and four lower-case hex digits.
   */
  public static StringBuilder appendQuoted(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append("\\u00")
                .append(Character.forDigit(c >> 4, 16))
                .append(Character.forDigit(c & 15, 16));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"');
  }
}
