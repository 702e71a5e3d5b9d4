package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.AddressInUseException;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps one running service (a board, a server, a reaper) while the application context runs: started
 * after the context refreshed, closed when it closes, a new one for each start. Thread-safe.
 *
 * @param <S> the running service
 */
abstract class ContextBoundService<S> implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(ContextBoundService.class);

    private final Supplier<S> starter;
    private final Consumer<S> closer;
    private S running;

    /**
     * @param starter starts a new service and returns it running
     * @param closer closes a running service, waiting for what it has in progress
     */
    ContextBoundService(Supplier<S> starter, Consumer<S> closer) {
        this.starter = Objects.requireNonNull(starter, "starter");
        this.closer = Objects.requireNonNull(closer, "closer");
    }

    /**
     * A starter that builds an unstarted service and starts it.
     *
     * @param builds builds a new, unstarted service
     * @param name the parameter's name, for the exception when it is null
     * @param start starts a built service and returns it
     * @param <S> the service
     * @return the starter
     */
    static <S> Supplier<S> buildAndStart(Supplier<S> builds, String name, UnaryOperator<S> start) {
        Objects.requireNonNull(builds, name);
        return () -> start.apply(builds.get());
    }

    /**
     * A start that reports a port in use in the words of the property that changes it.
     *
     * @param start starts a built service and returns it
     * @param portProperty the property of the port, e.g. {@code taskagent.mcp.port}
     * @param <S> the service
     * @return the start
     */
    static <S> UnaryOperator<S> namingPortProperty(UnaryOperator<S> start, String portProperty) {
        return service -> {
            try {
                return start.apply(service);
            } catch (AddressInUseException e) {
                throw new AddressInUseException(e.messageNaming(portProperty), e.host(), e.port(), e);
            }
        };
    }

    /**
     * A start that logs, at INFO, where the started service is reached.
     *
     * @param start starts a built service and returns it
     * @param name what the service is, e.g. {@code taskagent task board}
     * @param address where a started service is reached
     * @param <S> the service
     * @return the start
     */
    static <S> UnaryOperator<S> logging(UnaryOperator<S> start, String name, Function<S, Object> address) {
        return service -> {
            S started = start.apply(service);
            LOG.info("{}: {}", name, address.apply(started));
            return started;
        };
    }

    /** Starts the service. Idempotent. */
    @Override
    public final synchronized void start() {
        if (running == null) {
            running = starter.get();
        }
    }

    /** Closes the service. Idempotent. */
    @Override
    public final synchronized void stop() {
        if (running != null) {
            closer.accept(running);
            running = null;
        }
    }

    /** @return whether the service runs */
    @Override
    public final synchronized boolean isRunning() {
        return running != null;
    }

    /**
     * Returns the running service.
     *
     * @param name what the service is, for the message
     * @return the service
     * @throws IllegalStateException if it is not running
     */
    final synchronized S running(String name) {
        if (running == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return running;
    }

    /** @return the running service, or null when it is stopped */
    final synchronized S runningOrNull() {
        return running;
    }
}
