package dev.taskagent.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.dashboard.TaskDashboardServlet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

/**
 * Where the board and the MCP server are served in a servlet web application: under their paths on the
 * application's web server unless asked for a port of their own, and never without a token on a web server
 * reachable beyond loopback unless the application says something else guards them.
 */
class TaskAgentWebMountTest {
    private static final String TOKEN = "a-token-of-sixteen-chars";

    private final WebApplicationContextRunner web =
            new WebApplicationContextRunner().withConfiguration(TaskAgentAutoConfigurationTest.TASKAGENT);

    @Test
    void inAServletWebApplicationBothMountUnderTheirDefaultPathsAndOpenNoPortOfTheirOwn() {
        web.withPropertyValues(
                        "taskagent.dashboard.enabled=true", "taskagent.mcp.enabled=true", "server.address=127.0.0.1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context)
                            .doesNotHaveBean(DashboardLifecycle.class)
                            .doesNotHaveBean(McpServerLifecycle.class);
                    assertThat(mappings(context.getBean("taskAgentDashboardServlet", ServletRegistrationBean.class)))
                            .containsExactly("/taskagent/board/*");
                    assertThat(context.getBean("taskAgentDashboardServlet", ServletRegistrationBean.class)
                                    .getServlet())
                            .isInstanceOf(TaskDashboardServlet.class);
                    ServletRegistrationBean<?> mcp =
                            context.getBean("taskAgentMcpServlet", ServletRegistrationBean.class);
                    assertThat(mappings(mcp)).containsExactly("/taskagent/mcp");
                    assertThat(mcp.isAsyncSupported()).isTrue();
                    Map<String, WebServerMount> mounts = context.getBeansOfType(WebServerMount.class);
                    assertThat(mounts.get("taskAgentDashboardMount").path()).isEqualTo("/taskagent/board/");
                    assertThat(mounts.get("taskAgentMcpMount").path()).isEqualTo("/taskagent/mcp");
                });
    }

    @Test
    void thePathsAreConfigurable() {
        web.withPropertyValues(
                        "taskagent.dashboard.enabled=true",
                        "taskagent.dashboard.path=/ops/tasks",
                        "taskagent.mcp.enabled=true",
                        "taskagent.mcp.path=/agents/mcp",
                        "taskagent.mcp.token=" + TOKEN,
                        "taskagent.dashboard.token=" + TOKEN)
                .run(context -> {
                    assertThat(mappings(context.getBean("taskAgentDashboardServlet", ServletRegistrationBean.class)))
                            .containsExactly("/ops/tasks/*");
                    assertThat(mappings(context.getBean("taskAgentMcpServlet", ServletRegistrationBean.class)))
                            .containsExactly("/agents/mcp");
                });
    }

    @Test
    void onAWebServerReachableBeyondLoopbackBothNeedATokenAndTheMessageSaysWhatToDo() {
        for (String server : new String[] {"dashboard", "mcp"}) {
            web.withPropertyValues("taskagent." + server + ".enabled=true").run(context -> {
                assertThat(context).hasFailed();
                assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("on the application's web server, which listens on every interface"
                                + " (server.address is not set), so it needs a token: set taskagent." + server
                                + ".token (at least 16 characters), or server.address=127.0.0.1, or taskagent."
                                + server + ".standalone=true");
            });
            web.withPropertyValues("taskagent." + server + ".enabled=true", "server.address=0.0.0.0")
                    .run(context -> assertThat(context.getStartupFailure())
                            .hasStackTraceContaining("which listens on 0.0.0.0, so it needs a token"));
            web.withPropertyValues("taskagent." + server + ".enabled=true", "taskagent." + server + ".token=" + TOKEN)
                    .run(context -> assertThat(context).hasNotFailed());
            web.withPropertyValues(
                            "taskagent." + server + ".enabled=true", "taskagent." + server + ".require-token=false")
                    .run(context -> assertThat(context).hasNotFailed());
        }
    }

    @Test
    void standaloneGivesThemAPortOfTheirOwnInAWebApplicationToo() {
        web.withPropertyValues(
                        "taskagent.dashboard.enabled=true",
                        "taskagent.dashboard.standalone=true",
                        "taskagent.dashboard.port=0",
                        "taskagent.mcp.enabled=true",
                        "taskagent.mcp.standalone=true",
                        "taskagent.mcp.port=0")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(DashboardLifecycle.class).hasSingleBean(McpServerLifecycle.class);
                    assertThat(context)
                            .doesNotHaveBean("taskAgentDashboardServlet")
                            .doesNotHaveBean("taskAgentMcpServlet");
                    assertThat(context.getBean(DashboardLifecycle.class).uri().getPort())
                            .isPositive();
                });
    }

    @Test
    void badPathsAndHostsStopTheContextNamingTheProperty() {
        failsWith(
                "taskagent.dashboard.path must be a path of its own below the application's root, without a trailing"
                        + " slash or wildcards, e.g. /taskagent/dashboard; was '/board/'",
                "taskagent.dashboard.enabled=true",
                "taskagent.dashboard.path=/board/");
        failsWith("was '/'", "taskagent.dashboard.enabled=true", "taskagent.dashboard.path=/");
        failsWith("was '/tasks/*'", "taskagent.dashboard.enabled=true", "taskagent.dashboard.path=/tasks/*");
        failsWith("was 'tasks'", "taskagent.dashboard.enabled=true", "taskagent.dashboard.path=tasks");
        failsWith("was '/a/../b'", "taskagent.dashboard.enabled=true", "taskagent.dashboard.path=/a/../b");
        failsWith(
                "taskagent.mcp.path must end in /mcp, the name of the MCP endpoint, e.g. /taskagent/mcp; was"
                        + " '/agents'",
                "taskagent.mcp.enabled=true",
                "taskagent.mcp.path=/agents");
        failsWith(
                "taskagent.dashboard.allowed-origins takes origins as a browser sends them in its Origin header:"
                        + " http or https, a host and an optional port, or :* for any port, e.g."
                        + " https://tasks.example.com; was 'https://tasks.example.com/board'",
                "taskagent.dashboard.enabled=true",
                "server.address=127.0.0.1",
                "taskagent.dashboard.allowed-origins=https://tasks.example.com/board");
    }

    private void failsWith(String message, String... properties) {
        web.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
        });
    }

    private static java.util.Collection<String> mappings(ServletRegistrationBean<?> registration) {
        return registration.getUrlMappings();
    }
}
