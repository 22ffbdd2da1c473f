package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AOT cache for local instances: which classpaths it serves, what its key follows, and a real
 * training run whose cache a JVM then must use ({@code -XX:AOTMode=on} refuses to start from a
 * cache it cannot map, so a wrong key or a stale file fails this test, not silently slows).
 */
class AotCacheTest {
  @TempDir Path dir;

  private static final EndpointConfig FLITE =
      EndpointConfigFile.parse(Path.of("e.yaml"), "models:\n  m: {engine: flite}\n").model("m");

  @Test
  void unsupported_classesDirectory_saysJarsOnly() throws IOException {
    Path classes = Files.createDirectories(dir.resolve("classes"));

    assertThat(AotCache.unsupported(classes.toString()))
        .hasValueSatisfying(why -> assertThat(why).contains(classes.toString(), "jars only"));
  }

  @Test
  void unsupported_wildcard_asksForTheJarsListed() {
    assertThat(AotCache.unsupported(dir + "/lib/*"))
        .hasValueSatisfying(why -> assertThat(why).contains("wildcard"));
  }

  @Test
  void unsupported_jarsOnly_isEmpty() throws IOException {
    Path a = Files.writeString(dir.resolve("a.jar"), "x");
    Path b = Files.writeString(dir.resolve("b.jar"), "y");

    assertThat(AotCache.unsupported(a + File.pathSeparator + b)).isEmpty();
  }

  @Test
  void file_followsJarTimesAndEngine() throws IOException {
    Path jar = Files.writeString(dir.resolve("a.jar"), "x");
    String java = ServerBuild.current().command(FLITE).getFirst();
    Path before = AotCache.file(dir, java, jar.toString(), "flite");

    Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000L));
    Path rebuilt = AotCache.file(dir, java, jar.toString(), "flite");

    assertThat(before.getFileName().toString()).startsWith("server-flite-").endsWith(".aot");
    assertThat(rebuilt).isNotEqualTo(before);
    assertThat(AotCache.file(dir, java, jar.toString(), "espeak")).isNotEqualTo(before);
  }

  @Test
  void ensure_trainsOnceAndTheJvmStartsFromTheCache() throws Exception {
    String classpath = jarsOnlyServerClasspath();
    ServerBuild build = new ServerBuild(classpath, ServerBuild.current().command(FLITE).getFirst());
    List<String> plain = build.command(FLITE);
    List<String> said = new ArrayList<>();

    var first =
        AotCache.ensure(dir, plain.getFirst(), classpath, plain, FLITE, said::add)
            .orElseThrow(() -> new AssertionError("no cache: " + said));
    var second = AotCache.ensure(dir, plain.getFirst(), classpath, plain, FLITE, said::add);

    assertThat(first).isRegularFile();
    assertThat(Files.size(first)).isGreaterThan(1_000_000L);
    assertThat(second).contains(first);
    assertThat(said).as("trained once").hasSize(1).first().asString().contains("training");
    try (Stream s = Stream.start(AotCache.using(plain, first), "-XX:AOTMode=on")) {
      assertThat(s.ping())
          .as("server started from the cache answers /ping; output:\n%s", s.out())
          .isEqualTo(200);
    }
  }

  /** The server's jars from this test's classpath: the build as bin/tts-bench runs it. */
  private static String jarsOnlyServerClasspath() {
    List<Path> jars =
        ServerBuild.entries(System.getProperty("java.class.path")).stream()
            .filter(Files::isRegularFile)
            .filter(p -> p.toString().endsWith(".jar"))
            .filter(p -> !p.getFileName().toString().startsWith("surefire"))
            .toList();
    String cp = jars.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    assertThat(AotCache.unsupported(cp)).isEmpty();
    assertThat(jars)
        .as("speech-server's jar on the test classpath (run through Maven: mvn -pl platform-local)")
        .anyMatch(AotCacheTest::holdsTheServer);
    return cp;
  }

  private static boolean holdsTheServer(Path jar) {
    try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(jar.toFile())) {
      return z.getEntry("dev/speechscale/server/Main.class") != null;
    } catch (IOException e) {
      return false;
    }
  }

  /** One server process from a command, stopped on close. */
  private record Stream(Process process, Path log) implements AutoCloseable {
    static Stream start(List<String> command, String extraJvmFlag) throws IOException {
      List<String> cmd = new ArrayList<>(command);
      cmd.add(1, extraJvmFlag);
      Path log = Files.createTempFile("aot-run", ".log");
      Process p =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new Stream(p, log);
    }

    int ping() throws Exception {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      try (HttpClient http = HttpClient.newHttpClient()) {
        while (System.nanoTime() < deadline && process.isAlive()) {
          String out = out();
          int at = out.indexOf(InstanceProcess.LISTENING);
          if (at >= 0) {
            String line =
                out.substring(at + InstanceProcess.LISTENING.length())
                    .lines()
                    .findFirst()
                    .orElseThrow();
            int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).strip());
            try {
              int code =
                  http.send(
                          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping"))
                              .timeout(Duration.ofSeconds(5))
                              .build(),
                          HttpResponse.BodyHandlers.discarding())
                      .statusCode();
              if (code == 200) {
                return code;
              }
            } catch (IOException notYet) {
              // listening but not answering yet
            }
          }
          Thread.sleep(50);
        }
        return -1;
      }
    }

    String out() throws IOException {
      return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
      Files.deleteIfExists(log);
    }
  }
}
