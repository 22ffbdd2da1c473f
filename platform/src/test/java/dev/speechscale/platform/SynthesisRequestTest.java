package dev.speechscale.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SynthesisRequestTest {

  @Test
  void toJson_escapesText() {
    assertThat(new SynthesisRequest("say \"hi\"\n\u0001", "slt", 1.5, true).toJson())
        .isEqualTo(
            "{\"text\":\"say \\\"hi\\\"\\n\\u0001\",\"voice\":\"slt\",\"speed\":1.5,"
                + "\"stream\":true}");
  }

  @Test
  void toSessionJson_namesTheRequestInsteadOfTheStreamFlag() {
    assertThat(new SynthesisRequest("say \"hi\"", "slt", 1.5, true).toSessionJson("lg0-3"))
        .isEqualTo(
            "{\"text\":\"say \\\"hi\\\"\",\"voice\":\"slt\",\"speed\":1.5,"
                + "\"request_id\":\"lg0-3\"}");
    assertThat(SynthesisRequest.streaming("hi").toSessionJson("r1"))
        .isEqualTo("{\"text\":\"hi\",\"request_id\":\"r1\"}");
  }
}
