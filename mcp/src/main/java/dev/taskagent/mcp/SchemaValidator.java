package dev.taskagent.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.io.IOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SDK's JSON Schema validator (of its Jackson 2 module, built on json-schema-validator 2.x), made to survive
 * an application whose class path holds json-schema-validator 3.x instead: Spring AI 2.0 brings 3.x, and
 * Maven resolves one version for both. There the SDK's validator fails with a {@link LinkageError}; this one
 * then logs a warning once and goes on without schema checks, as the SDK does when no validator checks
 * schemas. Little is lost: taskagent's tools check their own arguments (the SDK's input validation is off),
 * their schemas are generated, and their results are written by the tools themselves.
 *
 * <p>Thread-safe.
 */
final class SchemaValidator implements JsonSchemaValidator {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaValidator.class);

    private final McpJsonMapper jsonMapper;
    private volatile JsonSchemaValidator strict;
    private boolean warned;

    SchemaValidator(McpJsonMapper jsonMapper) {
        this.jsonMapper = jsonMapper;
        try {
            strict = new DefaultJsonSchemaValidator();
        } catch (LinkageError e) {
            unusable(e);
        }
    }

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        JsonSchemaValidator current = strict;
        if (current != null) {
            try {
                return current.validate(schema, structuredContent);
            } catch (LinkageError e) {
                unusable(e);
            }
        }
        try {
            return ValidationResponse.asValid(jsonMapper.writeValueAsString(structuredContent));
        } catch (IOException e) {
            return ValidationResponse.asInvalid(
                    "The structured content could not be written as JSON: " + e.getMessage());
        }
    }

    @Override
    public ValidationResponse validateSchema(Map<String, Object> schema) {
        JsonSchemaValidator current = strict;
        if (current != null) {
            try {
                return current.validateSchema(schema);
            } catch (LinkageError e) {
                unusable(e);
            }
        }
        return ValidationResponse.asValid(null);
    }

    /** Whether schemas are checked (false once the class path's json-schema-validator proved incompatible). */
    boolean checksSchemas() {
        return strict != null;
    }

    private synchronized void unusable(LinkageError e) {
        if (!warned) {
            warned = true;
            LOG.warn(
                    "The MCP SDK's JSON Schema validator does not run with the json-schema-validator on the class"
                            + " path ({}), e.g. the 3.x that Spring AI 2.0 brings where the SDK's Jackson 2 module"
                            + " needs 2.x; taskagent's MCP server goes on without the SDK's schema checks (its tools"
                            + " check their own arguments)",
                    e.toString());
        }
        strict = null;
    }
}
