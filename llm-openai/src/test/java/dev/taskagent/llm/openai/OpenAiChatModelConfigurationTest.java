package dev.taskagent.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.testservers.FakeOpenAiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class OpenAiChatModelConfigurationTest {

    @Test
    void theDefaultsAreOpenAiAndADocumentedModel() {
        try (OpenAiChatModel model =
                OpenAiChatModel.builder().apiKey("sk-secret-key").build()) {
            assertThat(model.model()).isEqualTo("gpt-4o-mini");
            assertThat(model.baseUrl()).isEqualTo("https://api.openai.com/v1");
            assertThat(model.timeout()).isEqualTo(Duration.ofMinutes(10));
            assertThat(model.maxRetries()).isEqualTo(2);
            assertThat(model.toString())
                    .isEqualTo("OpenAiChatModel[model=gpt-4o-mini, baseUrl=https://api.openai.com/v1]")
                    .doesNotContain("sk-secret-key");
        }
    }

    @Test
    void buildingNeedsAKeyOrABaseUrl() {
        assertThatThrownBy(() -> OpenAiChatModel.builder().model("gpt-4.1").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("OpenAiChatModel needs an apiKey for https://api.openai.com/v1, or a baseUrl of an"
                        + " OpenAI-compatible server that needs no key");
    }

    @Test
    void theBuilderRejectsBadValuesAtOnce() {
        OpenAiChatModel.Builder builder = OpenAiChatModel.builder();

        assertThatThrownBy(() -> builder.apiKey(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("apiKey must not be blank");
        assertThatThrownBy(() -> builder.baseUrl("localhost:11434/v1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseUrl 'localhost:11434/v1' must be an absolute http or https URL with a host, e.g."
                        + " http://localhost:11434/v1");
        assertThatThrownBy(() -> builder.baseUrl("http://exa mple/v1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("baseUrl 'http://exa mple/v1' is not a URL");
        assertThatThrownBy(() -> builder.model(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("model must not be blank; e.g. gpt-4o-mini");
        assertThatThrownBy(() -> builder.timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be positive, was PT0S");
        assertThatThrownBy(() -> builder.maxRetries(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxRetries must be 0 or more, was -1");
    }

    @Test
    void aTrailingSlashOfTheBaseUrlIsDropped() {
        try (OpenAiChatModel model =
                OpenAiChatModel.builder().baseUrl("http://localhost:11434/v1/").build()) {
            assertThat(model.baseUrl()).isEqualTo("http://localhost:11434/v1");
        }
    }

    @Test
    void theEnvironmentNeedsAKeyOrABaseUrl() {
        assertThatThrownBy(() -> OpenAiChatModel.fromSettings(settings(Map.of()), settings(Map.of())))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("No OpenAI configuration found: OPENAI_API_KEY and OPENAI_BASE_URL are both unset (and"
                        + " so are -Dopenai.apiKey and -Dopenai.baseUrl). Set OPENAI_API_KEY to use the OpenAI API,"
                        + " or OPENAI_BASE_URL to use an OpenAI-compatible server such as Ollama"
                        + " (http://localhost:11434/v1).");
    }

    @Test
    void anInvalidBaseUrlInTheEnvironmentNamesTheProblem() {
        assertThatThrownBy(() -> OpenAiChatModel.fromSettings(
                        settings(Map.of("OPENAI_BASE_URL", "ollama:11434")), settings(Map.of())))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("Invalid OpenAI configuration from the environment: baseUrl 'ollama:11434' must be an"
                        + " absolute http or https URL with a host, e.g. http://localhost:11434/v1");
    }

    @Test
    void aBaseUrlWithoutKeyReachesALocalServerWithAPlaceholderKey() {
        try (FakeOpenAiServer server = FakeOpenAiServer.start();
                OpenAiChatModel model = OpenAiChatModel.fromSettings(
                        settings(Map.of("OPENAI_BASE_URL", server.baseUrl(), "OPENAI_MODEL", "qwen2.5:7b")),
                        settings(Map.of()))) {
            server.enqueue(FakeOpenAiServer.json(200, FakeOpenAiServer.textCompletion("Local hello.", 2, 2)));

            String text = model.chat(ChatRequest.of("", List.of(new UserMessage("Hi")), List.of()))
                    .text();

            assertThat(text).isEqualTo("Local hello.");
            FakeOpenAiServer.RecordedRequest request = server.takeRequest();
            assertThat(request.json().path("model").asText()).isEqualTo("qwen2.5:7b");
            assertThat(request.header("Authorization")).isEqualTo("Bearer " + OpenAiChatModel.PLACEHOLDER_API_KEY);
        }
    }

    @Test
    void systemPropertiesWinOverEnvironmentVariablesAndBlankValuesCountAsUnset() {
        try (OpenAiChatModel model = OpenAiChatModel.fromSettings(
                settings(Map.of(
                        "OPENAI_API_KEY", "sk-env",
                        "OPENAI_BASE_URL", "http://env-host:8000/v1",
                        "OPENAI_MODEL", "env-model")),
                settings(Map.of("openai.baseUrl", "http://property-host:8080/v1", "openai.model", " ")))) {
            assertThat(model.baseUrl()).isEqualTo("http://property-host:8080/v1");
            assertThat(model.model()).isEqualTo("env-model");
        }
    }

    @Test
    void azureEndpointsAreRecognisedByTheirHost() {
        assertThat(OpenAiChatModel.isAzureHost("https://my-resource.openai.azure.com/openai/v1"))
                .isTrue();
        assertThat(OpenAiChatModel.isAzureHost("https://my-project.services.ai.azure.com/openai/v1"))
                .isTrue();
        assertThat(OpenAiChatModel.isAzureHost("https://api.openai.com/v1")).isFalse();
        assertThat(OpenAiChatModel.isAzureHost("http://localhost:11434/v1")).isFalse();
    }

    private static Function<String, String> settings(Map<String, String> values) {
        return values::get;
    }
}
