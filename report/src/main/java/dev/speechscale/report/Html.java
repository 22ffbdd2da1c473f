package dev.speechscale.report;

import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** HTML escaping, and the CSS class a verdict is shown in. */
final class Html {
  private Html() {}

  /** Matches an absolute path; group 1 is its file name. */
  private static final Pattern ABSOLUTE_PATH =
      Pattern.compile("(?<![\\w.~])/(?:[^\\s/()\"']+/)+([^\\s/()\"']+)");

  static String esc(@Nullable String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * Free text for people (notes, details), escaped, with every absolute path reduced to its file
   * name: a report is read on other machines, and where this one kept its files says nothing there.
   * Rerun commands keep their paths (they are escaped with {@link #esc} only).
   */
  static String escText(@Nullable String s) {
    return esc(s == null ? null : ABSOLUTE_PATH.matcher(s).replaceAll("$1"));
  }

  /** The CSS class of a verdict label: ok, warn, suppressed, or fail for anything else. */
  static String cls(String verdict) {
    String v = verdict == null ? "" : verdict.toLowerCase(Locale.ROOT);
    if (v.startsWith("ok")) {
      return "ok";
    }
    if (v.startsWith("warn")) {
      return "warn";
    }
    if (v.startsWith("suppressed")) {
      return "suppressed";
    }
    return "fail";
  }

  /** A verdict label in a span of its class. */
  static String verdict(String label) {
    return "<span class=\"" + cls(label) + "\">" + esc(label) + "</span>";
  }

  /**
   * Opens a check's table row: its name, then its verdict label in a cell of the label's class,
   * then the next cell; the caller appends that cell's content and closes the row.
   */
  static StringBuilder verdictRow(StringBuilder h, String name, String label) {
    return h.append("<tr><td>")
        .append(esc(name))
        .append("</td><td class=\"")
        .append(cls(label))
        .append("\">")
        .append(esc(label))
        .append("</td><td>");
  }

  /** {@link String#format} in the root locale (a report reads the same on every machine). */
  static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** One decimal, or an en dash for none. */
  static String num(@Nullable Double v) {
    return v == null ? "\u2013" : f("%.1f", v);
  }

  /** Three decimals, or an en dash for none. */
  static String num3(@Nullable Double v) {
    return v == null ? "\u2013" : f("%.3f", v);
  }

  /**
   * Milliseconds as people read them on an axis: {@code 0.5 ms}, {@code 20 ms}, {@code 1.5 s}
   * (seconds from 1000 ms on), at most three significant digits.
   */
  static String millis(double ms) {
    return ms >= 1000 ? trimmed(ms / 1000) + " s" : trimmed(ms) + " ms";
  }

  /** Seconds as minutes and seconds ({@code 0:05}, {@code 2:30}), whole seconds, rounded. */
  static String clock(double seconds) {
    long s = Math.round(seconds);
    return f("%d:%02d", s / 60, s % 60);
  }

  /** An instant as people read it: {@code 2026-12-02 01:00:05 UTC}, to the second. */
  static String utc(java.time.Instant at) {
    return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
        .withZone(java.time.ZoneOffset.UTC)
        .format(at);
  }

  /** A number with at most three significant digits and no trailing zeros. */
  private static String trimmed(double v) {
    String s = new java.math.BigDecimal(v).round(new java.math.MathContext(3)).toPlainString();
    return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }
}
