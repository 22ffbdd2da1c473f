package dev.speechscale.platform.local;

import dev.speechscale.platform.PlatformContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The shared platform contract, against a real local endpoint with scaling attached. */
class LocalPlatformContractTest extends PlatformContract {
  @TempDir static Path dir;
  static LocalEndpoint endpoint;

  @BeforeAll
  static void deploy() throws Exception {
    endpoint = LocalEndpoint.deploy(dir, "contract", ContractFixture.yaml("contract", ""), true);
  }

  @AfterAll
  static void destroy() {
    endpoint.close();
  }

  @Override
  protected Fixture fixture() {
    return new ContractFixture(
        endpoint.platform,
        endpoint.endpoint(),
        (count, timeout) ->
            LocalEndpoint.await(
                count + " in-service instances",
                timeout,
                () -> {
                  var d = endpoint.platform.describe(endpoint.endpoint());
                  return d.currentInstances() == count && d.desiredInstances() == count;
                }));
  }
}
