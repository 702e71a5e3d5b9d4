package dev.taskagent.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatModelProvider;
import dev.taskagent.llm.ChatModels;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.testservers.FakeOpenAiServer;
import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiChatModelProviderTest {
    private static final String SERVICE_FILE = "META-INF/services/" + ChatModelProvider.class.getName();
    private static final String SECOND_PROVIDER_FILE = "test-providers/" + ChatModelProvider.class.getName();

    @AfterEach
    void clearSystemProperties() {
        System.clearProperty(ChatModels.SELECTOR_PROPERTY);
        System.clearProperty(OpenAiChatModel.API_KEY_PROPERTY);
        System.clearProperty(OpenAiChatModel.BASE_URL_PROPERTY);
        System.clearProperty(OpenAiChatModel.MODEL_PROPERTY);
    }

    @Test
    void serviceLoaderFindsTheOpenAiProvider() {
        ChatModelProvider provider = ChatModels.findProvider();

        assertThat(provider).isInstanceOf(OpenAiChatModelProvider.class);
        assertThat(provider.name()).isEqualTo("openai");
    }

    @Test
    void discoveryCreatesAModelConfiguredFromTheSystemProperties() {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(FakeOpenAiServer.json(200, FakeOpenAiServer.textCompletion("Found you.", 4, 2)));
            System.setProperty(OpenAiChatModel.API_KEY_PROPERTY, "sk-from-property");
            System.setProperty(OpenAiChatModel.BASE_URL_PROPERTY, server.baseUrl());
            System.setProperty(OpenAiChatModel.MODEL_PROPERTY, "llama3.2");

            ChatModel model = ChatModels.discover();
            String text = model.chat(ChatRequest.of("", List.of(new UserMessage("Hi")), List.of()))
                    .text();

            assertThat(text).isEqualTo("Found you.");
            FakeOpenAiServer.RecordedRequest request = server.takeRequest();
            assertThat(request.json().path("model").asText()).isEqualTo("llama3.2");
            assertThat(request.header("Authorization")).isEqualTo("Bearer sk-from-property");
            ((OpenAiChatModel) model).close();
        }
    }

    @Test
    void severalProvidersWithoutAChoiceIsAnErrorThatListsThem() {
        ClassLoader loader = new ServiceFileLoader(true, SECOND_PROVIDER_FILE);

        assertThatThrownBy(() -> ChatModels.findProvider(loader))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("Several ChatModelProviders found: openai (" + OpenAiChatModelProvider.class.getName()
                        + "), second (" + SecondTestProvider.class.getName() + "). Choose one with"
                        + " -Dtaskagent.chat-model=<name> or TASKAGENT_CHAT_MODEL=<name>.");
    }

    @Test
    void theExplicitSelectorChoosesOpenAiAmongSeveral() {
        ClassLoader loader = new ServiceFileLoader(true, SECOND_PROVIDER_FILE);
        System.setProperty(ChatModels.SELECTOR_PROPERTY, "openai");

        assertThat(ChatModels.findProvider(loader)).isInstanceOf(OpenAiChatModelProvider.class);

        System.setProperty(ChatModels.SELECTOR_PROPERTY, "second");
        assertThat(ChatModels.findProvider(loader)).isInstanceOf(SecondTestProvider.class);
    }

    @Test
    void anUnknownChoiceIsAnErrorThatListsWhatWasFound() {
        System.setProperty(ChatModels.SELECTOR_PROPERTY, "anthropic");

        assertThatThrownBy(ChatModels::findProvider)
                .isInstanceOf(ChatModelException.class)
                .hasMessage("No ChatModelProvider named 'anthropic' (chosen by -Dtaskagent.chat-model or"
                        + " TASKAGENT_CHAT_MODEL). Found: openai (" + OpenAiChatModelProvider.class.getName()
                        + "). Choose one of those names, or add the module that provides 'anthropic' to the class"
                        + " path.");
    }

    @Test
    void noProviderIsAnErrorThatSaysWhatToAdd() {
        ClassLoader loader = new ServiceFileLoader(false);

        assertThatThrownBy(() -> ChatModels.findProvider(loader))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("No ChatModelProvider found. Tried ServiceLoader on dev.taskagent.llm.ChatModelProvider."
                        + " Add taskagent-llm-openai (or another provider) to the class path, or construct a"
                        + " ChatModel directly.");
    }

    @Test
    void theProviderFailsClearlyWithoutConfiguration() {
        // create() reads the real environment; only check what it says when that has neither key nor URL.
        if (System.getenv(OpenAiChatModel.API_KEY_ENV) == null && System.getenv(OpenAiChatModel.BASE_URL_ENV) == null) {
            assertThatThrownBy(() -> new OpenAiChatModelProvider().create())
                    .isInstanceOf(ChatModelException.class)
                    .hasMessageStartingWith("No OpenAI configuration found");
        }
    }

    /**
     * Shows ServiceLoader the real provider files (or none) plus extra files from the test resources, so
     * that a test decides how many providers discovery sees.
     */
    private static final class ServiceFileLoader extends ClassLoader {
        private final boolean includeRegistered;
        private final List<String> extraFiles;

        ServiceFileLoader(boolean includeRegistered, String... extraFiles) {
            super(OpenAiChatModelProviderTest.class.getClassLoader());
            this.includeRegistered = includeRegistered;
            this.extraFiles = List.of(extraFiles);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            if (!name.equals(SERVICE_FILE)) {
                return super.getResources(name);
            }
            List<URL> files = new ArrayList<>();
            if (includeRegistered) {
                files.addAll(Collections.list(super.getResources(name)));
            }
            for (String extra : extraFiles) {
                files.add(getParent().getResource(extra));
            }
            return Collections.enumeration(files);
        }
    }
}
