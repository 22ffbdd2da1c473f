package dev.speechscale.platform.local;

import dev.speechscale.platform.OrphanedScaling;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local platform's orphan scan: every endpoint in the state directory whose record says scaling
 * is attached but whose supervisor is gone. The supervisor is the endpoint: without it nothing
 * serves, yet the record still holds the scalable target, both policies and both alarms, and the
 * next deploy under that name would start from them. The names are the ones {@link
 * LocalPlatform#scalingState} reports for a live endpoint.
 */
final class LocalOrphans {
  private LocalOrphans() {}

  static List<OrphanedScaling> scan(Path root) {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<OrphanedScaling> found = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
        LocalState.read(LocalState.endpointFile(dir), LocalState.EndpointRecord.class)
            .filter(r -> r.scaling() != null && r.scaling().attached())
            .filter(r -> !LocalState.alive(r.supervisorPid(), r.supervisorStartedAt()))
            .ifPresent(r -> found.addAll(orphans(r, dir)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list local endpoints in " + root, e);
    }
    return found;
  }

  private static List<OrphanedScaling> orphans(LocalState.EndpointRecord r, Path dir) {
    String e = r.endpoint();
    String fix =
        "its supervisor (pid "
            + r.supervisorPid()
            + ") is gone but "
            + LocalState.endpointFile(dir)
            + " still attaches it; `speech-infra destroy --model "
            + e.replaceFirst("^speech-", "")
            + "` removes it";
    return List.of(
        new OrphanedScaling(
            OrphanedScaling.Kind.SCALABLE_TARGET, "endpoint/" + e + "/variant/AllTraffic", e, fix),
        new OrphanedScaling(OrphanedScaling.Kind.SCALING_POLICY, e + "-target-tracking", e, fix),
        new OrphanedScaling(OrphanedScaling.Kind.SCALING_POLICY, e + "-step-scale-in", e, fix),
        new OrphanedScaling(
            OrphanedScaling.Kind.ALARM, "TargetTracking-" + e + "-AlarmHigh", e, fix),
        new OrphanedScaling(OrphanedScaling.Kind.ALARM, e + "-scale-in", e, fix));
  }
}
