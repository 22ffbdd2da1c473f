package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.simulator.ColdStart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NewInstanceServiceTest {
  private static final Path N = Path.of("..", "testdata", "quiet-2026-12-04n");

  /** {@code count} requests of {@code instance} spread over [from, from + 15) s in service. */
  private static void add(
      List<NewInstanceService.Served> out, String instance, double from, int count, double ms) {
    for (int i = 0; i < count; i++) {
      out.add(new NewInstanceService.Served(from + 15.0 * i / count, instance, ms, false));
    }
  }

  @Test
  void of_windowsSinceInService_newOverOldPerWindow() {
    List<NewInstanceService.Served> s = new ArrayList<>();
    // before the scale-out only i-old served (its times are not in any window)
    for (int i = 0; i < 20; i++) {
      s.add(new NewInstanceService.Served(-20 + i * 0.5, "i-old", 999, true));
    }
    // between desired_set and in service (negative start, after the trigger): not in a window
    s.add(new NewInstanceService.Served(-1, "i-old", 999, false));
    add(s, "i-new", 0, 10, 90);
    add(s, "i-old", 0, 10, 60);
    add(s, "i-new", 15, 4, 80); // too few for a factor
    add(s, "i-old", 15, 12, 60);
    add(s, "i-new", 30, 8, 66);
    add(s, "i-old", 30, 8, 60);
    add(s, "i-new", 45, 8, 61);
    add(s, "i-old", 45, 8, 61);
    add(s, "i-new", 60, 8, 300); // past what the probe covered to the end: left out

    NewInstanceService n = NewInstanceService.of(s, 62.5);

    assertThat(n.oldInstances()).containsExactly("i-old");
    assertThat(n.newInstance()).isEqualTo("i-new");
    assertThat(n.windows()).hasSize(4);
    NewInstanceService.Window w0 = n.windows().get(0);
    assertThat(w0.fromS()).isZero();
    assertThat(w0.untilS()).isEqualTo(15);
    assertThat(w0.newRequests()).isEqualTo(10);
    assertThat(w0.oldRequests()).isEqualTo(10);
    assertThat(w0.factor()).isCloseTo(1.5, within(1e-12));
    assertThat(n.windows().get(1).factor()).isNull();
    assertThat(n.windows().get(1).newServiceMs()).isCloseTo(80, within(1e-12));
    assertThat(n.windows().get(2).factor()).isCloseTo(1.1, within(1e-12));
    assertThat(n.windows().get(3).factor()).isCloseTo(1.0, within(1e-12));
    assertThat(n.measured()).isTrue();
    assertThat(n.summary())
        .isEqualTo(
            "new instance x1.50 / - / x1.10 / x1.00 the old one's service per 15 s in service");
    // the window without a factor ends the cold start after its first 15 s
    assertThat(n.coldStart("t").steps()).containsExactly(new ColdStart.Step(10, 1.5));
    assertThat(n.coldStartDescription("t"))
        .isEqualTo("a new instance's first requests take 1.50x (0-9) a warm one's time (t)");
  }

  @Test
  void of_noInstanceBeforeOrNoNewOne_saysWhyAndHasNoWindows() {
    List<NewInstanceService.Served> onlyAfter = new ArrayList<>();
    add(onlyAfter, "i-2", 0, 10, 60);
    NewInstanceService a = NewInstanceService.of(onlyAfter, 60);
    assertThat(a.windows()).isEmpty();
    assertThat(a.note()).isEqualTo("no probe response before the scale-out named its instance");

    List<NewInstanceService.Served> onlyOld = new ArrayList<>();
    onlyOld.add(new NewInstanceService.Served(-5, "i-1", 60, true));
    add(onlyOld, "i-1", 0, 10, 60);
    NewInstanceService b = NewInstanceService.of(onlyOld, 60);
    assertThat(b.windows()).isEmpty();
    assertThat(b.note())
        .isEqualTo("no probe response after the scale-out came from a new instance");
    assertThat(b.measured()).isFalse();
    assertThat(b.coldStart("x").none()).isTrue();
  }

  @Test
  void pooled_windowsOfSeveralRuns_weightByTheirRequests() {
    List<NewInstanceService.Served> r1 = new ArrayList<>();
    r1.add(new NewInstanceService.Served(-5, "a", 60, true));
    add(r1, "b", 0, 10, 90);
    add(r1, "a", 0, 10, 60);
    List<NewInstanceService.Served> r2 = new ArrayList<>();
    r2.add(new NewInstanceService.Served(-5, "c", 60, true));
    add(r2, "d", 0, 30, 70);
    add(r2, "c", 0, 10, 50);
    add(r2, "d", 15, 10, 50);
    add(r2, "c", 15, 10, 50);

    NewInstanceService p =
        NewInstanceService.pooled(
            List.of(NewInstanceService.of(r1, 15), NewInstanceService.of(r2, 30)));

    assertThat(p).isNotNull();
    assertThat(p.windows()).hasSize(2);
    // window 0: new (10 x 90 + 30 x 70) / 40 = 75, old (10 x 60 + 10 x 50) / 20 = 55
    assertThat(p.windows().get(0).newRequests()).isEqualTo(40);
    assertThat(p.windows().get(0).factor()).isCloseTo(75.0 / 55.0, within(1e-12));
    assertThat(p.windows().get(1).factor()).isCloseTo(1.0, within(1e-12));
    assertThat(p.oldInstances()).containsExactly("a", "c");
    assertThat(p.note()).isEqualTo("2 scale-outs pooled, window by window");
    assertThat(NewInstanceService.pooled(List.of())).isNull();
  }

  @Test
  void withHosts_dividesEachWindowsFactorByItsHostRatio_keepsItWithoutEnoughProbedSeconds() {
    List<NewInstanceService.Served> s = new ArrayList<>();
    s.add(new NewInstanceService.Served(-5, "i-old", 60, true));
    add(s, "i-new", 0, 10, 90);
    add(s, "i-old", 0, 10, 60);
    add(s, "i-new", 15, 10, 66);
    add(s, "i-old", 15, 10, 60);
    add(s, "i-new", 30, 10, 72);
    add(s, "i-old", 30, 10, 60);
    NewInstanceService n = NewInstanceService.of(s, 45);
    long inService = 1_000_000L;
    // the probe started 5 s before in service; host 0 the old instance's, host 1 the new one's:
    // window 0 the new host 1.2x slower, window 1 the same speed, window 2 probed 4 s only
    List<List<Double>> hosts = List.of(new ArrayList<>(), new ArrayList<>());
    for (int sec = 0; sec < 50; sec++) {
      hosts.get(0).add(20.0);
      Double next = 20.0;
      if (sec < 20) {
        next = 24.0;
      } else if (sec >= 35) {
        next = sec < 39 ? Double.valueOf(30.0) : null;
      }
      hosts.get(1).add(next);
    }
    HostSpeedLog log = new HostSpeedLog("p", inService - 5_000, hosts, 0, 1);

    NewInstanceService h = n.withHosts(log, inService);

    assertThat(h.windows().get(0).hostRatio()).isCloseTo(1.2, within(1e-12));
    assertThat(h.windows().get(0).factor()).isCloseTo(1.5 / 1.2, within(1e-12));
    assertThat(h.windows().get(0).newServiceMs()).isCloseTo(90, within(1e-12));
    assertThat(h.windows().get(1).hostRatio()).isCloseTo(1.0, within(1e-12));
    assertThat(h.windows().get(1).factor()).isCloseTo(1.1, within(1e-12));
    assertThat(h.windows().get(2).hostRatio()).isNull();
    assertThat(h.windows().get(2).factor()).isCloseTo(1.2, within(1e-12));
    assertThat(h.summary())
        .isEqualTo(
            "new instance x1.25 / x1.10 / x1.20 the old one's service per 15 s in service"
                + " (its host against the old one's, divided out: x1.20 / x1.00 / -)");
    assertThat(h.coldStart("t").steps())
        .containsExactly(
            new ColdStart.Step(10, 1.25), new ColdStart.Step(20, 1.1), new ColdStart.Step(30, 1.2));

    // pooled with a run the probe did not see: the pooled new mean, host-free, over the old
    NewInstanceService p = NewInstanceService.pooled(List.of(h, n));
    assertThat(p).isNotNull();
    // window 0: new (10 x 90 / 1.2 + 10 x 90) / 20 = 82.5 host-free, old 60
    assertThat(p.windows().get(0).factor()).isCloseTo(82.5 / 60, within(1e-12));
    assertThat(p.windows().get(0).hostRatio()).isCloseTo(90 / 82.5, within(1e-12));
    assertThat(p.windows().get(2).hostRatio()).isNull();
  }

  @Test
  void ttotal_withAndWithoutTheField_roundTripsAndOldFilesReadNull() throws Exception {
    TtotalArtifact old =
        ArtifactCodec.readTtotal(
            N.resolve("ttotal-quickstart-force-desired-local500mcpu-2a6e114d.json"));
    assertThat(old.newInstance()).isNull();
    assertThat(ArtifactCodec.toJson(old)).doesNotContain("new_instance");

    List<NewInstanceService.Served> s = new ArrayList<>();
    s.add(new NewInstanceService.Served(-5, "i-local-1", 60, true));
    add(s, "i-local-2", 0, 10, 90);
    add(s, "i-local-1", 0, 10, 60);
    long inService = 2_000_000L;
    HostSpeedLog hosts =
        new HostSpeedLog(
            "p",
            inService,
            List.of(
                java.util.Collections.nCopies(16, 20.0), java.util.Collections.nCopies(16, 22.0)),
            0,
            1);
    TtotalArtifact with =
        old.withNewInstance(NewInstanceService.of(s, 16).withHosts(hosts, inService));
    String json = ArtifactCodec.toJson(with);
    assertThat(json).contains("\"new_instance\"").contains("\"window_seconds\" : 15.0");
    assertThat(json).contains("\"host_ratio\" : 1.1");
    assertThat(ArtifactCodec.validate(ArtifactKind.TTOTAL, json)).isEmpty();
    Path f = java.nio.file.Files.createTempFile("ttotal", ".json");
    try {
      java.nio.file.Files.writeString(f, json);
      TtotalArtifact back = ArtifactCodec.readTtotal(f);
      assertThat(back.newInstance()).isEqualTo(with.newInstance());
      // a --runs N artifact pools every run's windows at the top level
      TtotalArtifact combined = TtotalArtifact.combine(List.of(with, with));
      assertThat(combined.newInstance()).isNotNull();
      assertThat(combined.newInstance().windows().getFirst().newRequests()).isEqualTo(20);
    } finally {
      java.nio.file.Files.delete(f);
    }
  }
}
