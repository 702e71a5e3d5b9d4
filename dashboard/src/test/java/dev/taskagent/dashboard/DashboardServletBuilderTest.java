package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
import org.junit.jupiter.api.Test;

/**
 * The board as a servlet refuses what only its own server could honour, and the rules it shares with the
 * server; a servlet that was built starts and ends its event streams with its container's init and destroy.
 * (It answers requests through the same handler as the server: the Spring example serves it on Tomcat.)
 */
class DashboardServletBuilderTest {
    private static final String TOKEN = "a-token-of-24-characters";
    private final InMemoryTaskStore store = new InMemoryTaskStore();

    @Test
    void anAddressAndPortAreTheContainersSoBindIsRefused() {
        assertThatThrownBy(
                        () -> TaskDashboard.builder(store).bind("127.0.0.1", 0).buildServlet())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("buildServlet() serves through the application's web server, which chooses the address"
                        + " and port: do not call bind(address, port)");
    }

    @Test
    void actionsWithoutATokenAreRefusedAsByTheServer() {
        assertThatThrownBy(
                        () -> TaskDashboard.builder(store).actionsEnabled(true).buildServlet())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Actions need a token");
    }

    @Test
    void aBuiltServletSaysWhatItServesAndEndsItsStreamsWhenDestroyed() throws Exception {
        TaskDashboardServlet servlet =
                TaskDashboard.builder(store).token(TOKEN).actionsEnabled(true).buildServlet();
        assertThat(servlet).hasToString("TaskDashboardServlet[actions=on, token=set]");
        servlet.init();
        assertThat(servlet.openEventStreams()).isZero();
        servlet.destroy();
        assertThat(TaskDashboard.builder(store).buildServlet())
                .hasToString("TaskDashboardServlet[actions=off, token=none]");
    }
}
