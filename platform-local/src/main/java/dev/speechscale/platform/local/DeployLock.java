package dev.speechscale.platform.local;

import dev.speechscale.platform.PlatformException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One deploy of an endpoint at a time (issue 11): an OS file lock on {@code
 * <root>/.<endpoint>.deploy.lock}, outside the endpoint's directory (which destroy deletes), held
 * from before anything is touched until the deploy returns. A second deploy of the same endpoint —
 * another process or another thread — is refused at once with a clear error and changes nothing;
 * the lock dies with its holder, so a killed deploy never blocks the next one.
 */
final class DeployLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private DeployLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static Path file(Path root, String endpoint) {
    return root.resolve("." + endpoint + ".deploy.lock");
  }

  /**
   * Takes the endpoint's deploy lock.
   *
   * @throws PlatformException (Unavailable) when another deploy of the endpoint holds it
   */
  static DeployLock acquire(Path root, String endpoint) {
    Path file = file(root, endpoint);
    FileChannel channel;
    try {
      Files.createDirectories(root);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException inThisProcess) {
      lock = null;
    } catch (IOException e) {
      close(channel);
      throw new UncheckedIOException("cannot lock " + file + ": " + e.getMessage(), e);
    }
    if (lock == null) {
      close(channel);
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              "another deploy of "
                  + endpoint
                  + " is in progress (it holds "
                  + file
                  + "); nothing was changed: wait for it to finish, then run this deploy again"));
    }
    return new DeployLock(channel, lock);
  }

  private static void close(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignoredOnClose) {
      // the lock, if any, goes with the channel
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException ignoredOnRelease) {
      // closing the channel releases it too
    }
    close(channel);
  }
}
