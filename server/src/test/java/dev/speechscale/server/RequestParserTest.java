package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RequestParserTest {
  private final ScriptedEngine engine = new ScriptedEngine(1, 1);
  private final RequestParser parser = new RequestParser(engine, 20, false);

  private RequestParser.Parsed parse(String json) {
    return parser.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  private ApiError bad(String json) {
    RequestParser.Parsed parsed = parse(json);
    assertThat(parsed).isInstanceOf(RequestParser.Parsed.Bad.class);
    return ((RequestParser.Parsed.Bad) parsed).error();
  }

  @Test
  void parse_textOnly_appliesPublishedDefaults() {
    var ok = (RequestParser.Parsed.Ok) parse("{\"text\":\"Hello\"}");
    SynthesisRequest r = ok.request();
    assertThat(r.voice()).isEqualTo("test");
    assertThat(r.speed()).isEqualTo(1.0);
    assertThat(r.stream()).isTrue();
    assertThat(r.format()).isEqualTo(AudioFormat.WAV);
    assertThat(r.sampleRateHz()).isEqualTo(ScriptedEngine.RATE);
    assertThat(r.requestId()).isEqualTo("unknown");
    assertThat(r.requestTimestampEpochS()).isEmpty();
  }

  @Test
  void parse_everyField_isCarried() {
    var ok =
        (RequestParser.Parsed.Ok)
            parse(
                "{\"text\":\"Hi\",\"voice\":\"test\",\"speed\":1.5,\"stream\":false,\"format\":\"pcm\","
                    + "\"sample_rate\":8000,\"request_timestamp\":1700000000.5,\"request_id\":\"r1\"}");
    SynthesisRequest r = ok.request();
    assertThat(r)
        .extracting(
            SynthesisRequest::speed,
            SynthesisRequest::stream,
            SynthesisRequest::format,
            SynthesisRequest::sampleRateHz,
            SynthesisRequest::requestId)
        .containsExactly(1.5, false, AudioFormat.PCM, 8000, "r1");
    assertThat(r.requestTimestampEpochS()).hasValue(1700000000.5);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{bad json|body|not valid UTF-8 JSON",
        "[1,2]|body|must be a JSON object, not array",
        "\"text\"|body|not string",
        "42|body|not number",
        "null|body|not null",
        "{}|text|text is required",
        "{\"text\":5}|text|must be a string",
        "{\"text\":\"   \"}|text|text is empty",
        "{\"text\":\"123456789012345678901\"}|text|21 characters, more than the limit of 20",
        "{\"text\":\"hi\",\"voice\":\"nobody\"}|voice|is not a voice of this engine; use one of [test]",
        "{\"text\":\"hi\",\"voice\":7}|voice|is not a voice",
        "{\"text\":\"hi\",\"speed\":3}|speed|must be between 0.5 and 2.0",
        "{\"text\":\"hi\",\"speed\":0.1}|speed|must be between 0.5 and 2.0",
        "{\"text\":\"hi\",\"speed\":\"fast\"}|speed|must be a number",
        "{\"text\":\"hi\",\"stream\":\"yes\"}|stream|must be true or false",
        "{\"text\":\"hi\",\"format\":\"ogg\"}|format|must be \"wav\", \"pcm\" or \"mp3\"",
        "{\"text\":\"hi\",\"format\":\"mp3\"}|format|needs the system LAME library",
        "{\"text\":\"hi\",\"sample_rate\":44100}|sample_rate|must be one of [8000, 11025, 16000]",
        "{\"text\":\"hi\",\"sample_rate\":8000.5}|sample_rate|must be one of",
        "{\"text\":\"hi\",\"request_timestamp\":\"now\"}|request_timestamp|epoch seconds",
        "{\"text\":\"hi\",\"request_id\":5}|request_id|must be a string",
        "{\"text\":\"hi\",\"transport\":\"sse\"}|transport|not supported",
        "{\"text\":\"hi\",\"text\":\"again\"}|body|Duplicate",
        "{\"text\":\"hi\"} {}|body|not valid UTF-8 JSON",
      })
  void parse_badInput_is400NamingTheField(String json, String field, String fragment) {
    ApiError error = bad(json);
    assertThat(error.status()).isEqualTo(400);
    assertThat(error.body()).containsEntry("field", field);
    assertThat(error.error()).contains(fragment);
  }

  @Test
  void parse_emptyBody_is400() {
    assertThat(parser.parse(new byte[0])).isInstanceOf(RequestParser.Parsed.Bad.class);
  }

  @Test
  void parse_invalidUtf8_is400() {
    byte[] body = {'{', '"', 't', 'e', 'x', 't', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
    var parsed = parser.parse(body);
    assertThat(parsed).isInstanceOf(RequestParser.Parsed.Bad.class);
    assertThat(((RequestParser.Parsed.Bad) parsed).error().error()).contains("UTF-8");
  }

  @Test
  void parse_deeplyNestedJson_is400NotStackOverflow() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertThat(parse(deep)).isInstanceOf(RequestParser.Parsed.Bad.class);
  }

  @Test
  void sanitize_controlCharacters_becomeSpacesButNewlinesStay() {
    assertThat(RequestParser.sanitize("a\u0000b\nc\td\u0007")).isEqualTo("a b\nc\td ");
  }

  @Test
  void allowedRates_engineAt16k_areOnlyDownsamples() {
    assertThat(parser.allowedRates()).containsExactly(8000, 11025, 16000);
  }
}
