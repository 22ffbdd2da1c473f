package dev.speechscale.platform.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs {@link AwsControlPlane} in the foreground beside the local endpoints of a state directory:
 * {@code java ... AwsControlPlaneMain [--state-dir DIR] [--region R] [--port N]} (defaults: the
 * local platform's state directory, {@code us-east-1}, port 0). Prints the URL to pass as {@code
 * --endpoint-url}, and serves until SIGTERM or Ctrl-C. Exit 2 on a usage error.
 */
public final class AwsControlPlaneMain {
  private AwsControlPlaneMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Path root = LocalPlatform.defaultRoot();
    String region = "us-east-1";
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--state-dir" -> root = Path.of(args[i + 1]);
        case "--region" -> region = args[i + 1];
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        default -> usage("unknown option " + args[i]);
      }
    }
    if (args.length % 2 != 0) {
      usage("option " + args[args.length - 1] + " needs a value");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    try (AwsControlPlane plane = AwsControlPlane.start(root, region, port)) {
      Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "aws-plane-stop"));
      System.out.println(
          "aws control plane for " + root + " listening on " + plane.uri() + " (" + region + ")");
      System.out.flush();
      stopped.await();
    }
  }

  private static void usage(String why) {
    System.err.println(
        why + "; usage: AwsControlPlaneMain [--state-dir DIR] [--region REGION] [--port N]");
    System.exit(2);
  }
}
