package dev.speechscale.server;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validates a request body field by field before anything is committed. Every rejection is a 400
 * naming the field, the value, the rule and the fix; nothing here can produce a 500.
 */
final class RequestParser {
  /** Output rates a request may ask for; only those at or below the engine's rate are allowed. */
  static final List<Integer> SAMPLE_RATES = List.of(8_000, 11_025, 16_000, 22_050, 24_000);

  static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final int MAX_REQUEST_ID_CHARS = 256;
  private static final int VOICES_LISTED = 12;

  /** Parse outcome. */
  sealed interface Parsed {
    record Ok(SynthesisRequest request) implements Parsed {}

    record Bad(ApiError error) implements Parsed {}
  }

  private final List<String> voices;
  private final String defaultVoice;
  private final int nativeRateHz;
  private final int maxTextChars;
  private final boolean mp3Available;

  RequestParser(SpeechEngine engine, int maxTextChars, boolean mp3Available) {
    this.voices = List.copyOf(engine.voices());
    this.defaultVoice = engine.defaultVoice();
    this.nativeRateHz = engine.sampleRateHz();
    this.maxTextChars = maxTextChars;
    this.mp3Available = mp3Available;
  }

  /** Parses raw bytes (which must be UTF-8 JSON). */
  Parsed parse(byte[] body) {
    if (body.length == 0) {
      return bad("body", "the request body is empty; send a JSON object like {\"text\":\"Hello\"}");
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JacksonException e) {
      return bad(
          "body",
          "the request body is not valid UTF-8 JSON ("
              + firstLine(e.getOriginalMessage())
              + "); send a JSON object like {\"text\":\"Hello\"}");
    }
    return parse(root);
  }

  /** Parses a JSON tree (the WebSocket path reads the tree itself to see {@code type}). */
  Parsed parse(@Nullable JsonNode root) {
    if (root == null || !root.isObject()) {
      return bad(
          "body",
          "the request body must be a JSON object, not "
              + (root == null ? "nothing" : root.getNodeType().name().toLowerCase(Locale.ROOT))
              + "; send {\"text\":\"Hello\"}");
    }
    JsonNode text = root.get("text");
    if (text == null || text.isNull()) {
      return bad("text", "text is required; send {\"text\":\"Hello\"}");
    }
    if (!text.isString()) {
      return bad("text", "text must be a string, not " + kind(text));
    }
    String value = sanitize(text.asString());
    if (value.isBlank()) {
      return bad("text", "text is empty; send at least one word to speak");
    }
    int chars = value.codePointCount(0, value.length());
    if (chars > maxTextChars) {
      return bad(
          "text",
          "text has "
              + chars
              + " characters, more than the limit of "
              + maxTextChars
              + " (--max-text-chars); split it into several requests");
    }
    return voice(root).orElse(null) instanceof ApiError e ? new Parsed.Bad(e) : rest(root, value);
  }

  private Parsed rest(JsonNode root, String text) {
    String voice = root.hasNonNull("voice") ? root.get("voice").asString() : defaultVoice;
    JsonNode speedNode = root.get("speed");
    double speed = 1.0;
    if (speedNode != null && !speedNode.isNull()) {
      if (!speedNode.isNumber() || !Double.isFinite(speedNode.asDouble())) {
        return bad("speed", "speed must be a number, not " + kind(speedNode));
      }
      speed = speedNode.asDouble();
      if (speed < SynthesisRequest.MIN_SPEED || speed > SynthesisRequest.MAX_SPEED) {
        return bad(
            "speed",
            String.format(
                Locale.ROOT,
                "speed (%s) must be between %.1f and %.1f; 1.0 is normal",
                speedNode,
                SynthesisRequest.MIN_SPEED,
                SynthesisRequest.MAX_SPEED));
      }
    }
    JsonNode streamNode = root.get("stream");
    if (streamNode != null && !streamNode.isNull() && !streamNode.isBoolean()) {
      return bad("stream", "stream must be true or false, not " + kind(streamNode));
    }
    boolean stream = streamNode == null || streamNode.isNull() || streamNode.asBoolean();
    AudioFormat format = AudioFormat.WAV;
    JsonNode formatNode = root.get("format");
    if (formatNode != null && !formatNode.isNull()) {
      format = formatOf(formatNode);
      if (format == null) {
        return bad("format", "format (" + formatNode + ") must be \"wav\", \"pcm\" or \"mp3\"");
      }
      if (format == AudioFormat.MP3 && !mp3Available) {
        return bad(
            "format",
            "format \"mp3\" needs the system LAME library ("
                + Mp3Encoder.SONAME
                + "), which is not installed; install it (apt-get install -y "
                + Mp3Encoder.PACKAGE
                + ") and restart, or ask for \"wav\" or \"pcm\"");
      }
    }
    JsonNode rateNode = root.get("sample_rate");
    int rate = nativeRateHz;
    if (rateNode != null && !rateNode.isNull()) {
      List<Integer> allowed = allowedRates();
      if (!rateNode.canConvertToExactIntegral()
          || !rateNode.canConvertToInt()
          || !allowed.contains(rateNode.asInt())) {
        return bad(
            "sample_rate",
            "sample_rate ("
                + rateNode
                + ") must be one of "
                + allowed
                + " Hz: this engine produces "
                + nativeRateHz
                + " Hz and the server only downsamples");
      }
      rate = rateNode.asInt();
    }
    JsonNode tsNode = root.get("request_timestamp");
    OptionalDouble timestamp = OptionalDouble.empty();
    if (tsNode != null && !tsNode.isNull()) {
      if (!tsNode.isNumber() || !Double.isFinite(tsNode.asDouble())) {
        return bad(
            "request_timestamp",
            "request_timestamp must be the send time in epoch seconds, not " + kind(tsNode));
      }
      timestamp = OptionalDouble.of(tsNode.asDouble());
    }
    JsonNode idNode = root.get("request_id");
    String requestId = "unknown";
    if (idNode != null && !idNode.isNull()) {
      if (!idNode.isString() || idNode.asString().length() > MAX_REQUEST_ID_CHARS) {
        return bad("request_id", "request_id must be a string of at most 256 characters");
      }
      requestId = idNode.asString();
    }
    JsonNode transport = root.get("transport");
    if (transport != null && !transport.isNull() && !"binary".equals(transport.asString(""))) {
      return bad(
          "transport",
          "transport (" + transport + ") is not supported; omit it or send \"binary\"");
    }
    return new Parsed.Ok(
        new SynthesisRequest(text, voice, speed, stream, format, rate, timestamp, requestId));
  }

  private java.util.Optional<ApiError> voice(JsonNode root) {
    JsonNode voice = root.get("voice");
    if (voice == null || voice.isNull()) {
      return java.util.Optional.empty();
    }
    if (!voice.isString() || !voices.contains(voice.asString())) {
      List<String> listed =
          voices.size() > VOICES_LISTED ? voices.subList(0, VOICES_LISTED) : voices;
      return java.util.Optional.of(
          ApiError.badField(
              "voice",
              "voice ("
                  + voice
                  + ") is not a voice of this engine; use one of "
                  + listed
                  + (voices.size() > VOICES_LISTED ? " (" + voices.size() + " in all)" : "")
                  + " or omit voice for "
                  + defaultVoice));
    }
    return java.util.Optional.empty();
  }

  List<Integer> allowedRates() {
    List<Integer> allowed =
        new java.util.ArrayList<>(SAMPLE_RATES.stream().filter(r -> r <= nativeRateHz).toList());
    if (!allowed.contains(nativeRateHz)) {
      allowed.add(nativeRateHz);
    }
    return List.copyOf(allowed);
  }

  /** The format a {@code format} value names; null when it names none. */
  private static @Nullable AudioFormat formatOf(JsonNode node) {
    if (!node.isString()) {
      return null;
    }
    for (AudioFormat f : AudioFormat.values()) {
      if (f.wireName().equals(node.asString())) {
        return f;
      }
    }
    return null;
  }

  /**
   * Control characters other than newline and tab become spaces: the native engines take C strings,
   * where a NUL would silently cut the text.
   */
  static String sanitize(String text) {
    int[] cps =
        text.codePoints()
            .map(c -> (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? ' ' : c)
            .toArray();
    return new String(cps, 0, cps.length);
  }

  private static String kind(JsonNode node) {
    return node.getNodeType().name().toLowerCase(Locale.ROOT) + " " + abbreviate(node.toString());
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  private static String firstLine(@Nullable String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = IntStream.range(0, s.length()).filter(i -> s.charAt(i) == '\n').findFirst().orElse(-1);
    return abbreviate(nl < 0 ? s : s.substring(0, nl));
  }

  private static Parsed bad(String field, String message) {
    return new Parsed.Bad(ApiError.badField(field, message));
  }
}
