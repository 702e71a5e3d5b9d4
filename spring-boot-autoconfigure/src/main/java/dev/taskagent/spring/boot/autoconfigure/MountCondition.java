package dev.taskagent.spring.boot.autoconfigure;

import org.springframework.boot.autoconfigure.condition.AllNestedConditions;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConfigurationCondition;

/**
 * The rule that decides where the task board and the MCP server are served: on the application's own web
 * server (under their path) in a servlet web application, unless their {@code standalone} property is set;
 * on a port of their own otherwise.
 */
final class MountCondition {
    private MountCondition() {}

    /** The board on the application's web server. */
    static final class BoardMounted extends AllNestedConditions {
        BoardMounted() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
        static final class ServletWebApplication {}

        @ConditionalOnBooleanProperty(
                name = "taskagent.dashboard.standalone",
                havingValue = false,
                matchIfMissing = true)
        static final class NotStandalone {}
    }

    /** The board on its own port. */
    static final class BoardStandalone extends NoneNestedConditions {
        BoardStandalone() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(BoardMounted.class)
        static final class Mounted {}
    }

    /** The MCP server on the application's web server. */
    static final class McpMounted extends AllNestedConditions {
        McpMounted() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
        static final class ServletWebApplication {}

        @ConditionalOnBooleanProperty(name = "taskagent.mcp.standalone", havingValue = false, matchIfMissing = true)
        static final class NotStandalone {}
    }

    /** The MCP server on its own port. */
    static final class McpStandalone extends NoneNestedConditions {
        McpStandalone() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(McpMounted.class)
        static final class Mounted {}
    }
}
