package apicurio.common.app.components.config.index.deployment;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;

import apicurio.common.app.components.config.index.DynamicPropertiesInfoRecorder;
import io.apicurio.common.apps.config.Dynamic;
import io.apicurio.common.apps.config.DynamicConfigPropertyDef;
import io.apicurio.common.apps.config.DynamicConfigPropertyList;
import io.quarkus.arc.deployment.BeanDiscoveryFinishedBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.processor.InjectionPointInfo;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;

/**
 * fairledger's own build step standing in for the build-time half of Apicurio's config-index extension, which Maven
 * Central lacks; only the test suite's Apicurio Registry (../app) uses it. The registry's runtime expects one bean, a
 * {@link DynamicConfigPropertyList} naming every field injected as {@code @ConfigProperty @Dynamic
 * Supplier<T>}: this step finds those injection points after bean discovery and hands their name, type, default and
 * labels to the extension's recorder.
 */
class ConfigIndexProcessor {

    private static final DotName CONFIG_PROPERTY = DotName.createSimple(ConfigProperty.class.getName());
    private static final DotName DYNAMIC = DotName.createSimple(Dynamic.class.getName());

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void dynamicProperties(DynamicPropertiesInfoRecorder recorder, BeanDiscoveryFinishedBuildItem discovery,
            BuildProducer<SyntheticBeanBuildItem> beans) throws ClassNotFoundException {
        List<DynamicConfigPropertyDef> found = new ArrayList<>();
        for (InjectionPointInfo point : discovery.getInjectionPoints()) {
            AnnotationInstance property = point.getRequiredQualifier(CONFIG_PROPERTY);
            if (property == null || !point.isField()) {
                continue;
            }
            AnnotationInstance dynamic = point.getTarget().asField().annotation(DYNAMIC);
            if (dynamic != null) {
                found.add(definition(point, property, dynamic));
            }
        }
        beans.produce(SyntheticBeanBuildItem.configure(DynamicConfigPropertyList.class)
                .runtimeValue(recorder.initializePropertiesInfo(found))
                .unremovable()
                .setRuntimeInit()
                .done());
    }

    /** One {@code Supplier<T>} field's property: T is the property's type; a dynamic property must have a default. */
    private static DynamicConfigPropertyDef definition(InjectionPointInfo point, AnnotationInstance property,
            AnnotationInstance dynamic) throws ClassNotFoundException {
        String name = property.value("name").asString();
        AnnotationValue fallback = property.value("defaultValue");
        if (fallback == null) {
            throw new IllegalStateException("dynamic configuration property '" + name + "' has no default value");
        }
        String typeName = point.getRequiredType().asParameterizedType().arguments().get(0).name().toString();
        DynamicConfigPropertyDef def = new DynamicConfigPropertyDef(name, Class.forName(typeName), fallback.asString());
        AnnotationValue label = dynamic.value("label");
        if (label != null) {
            def.setLabel(label.asString());
        }
        AnnotationValue description = dynamic.value("description");
        if (description != null) {
            def.setDescription(description.asString());
        }
        AnnotationValue requires = dynamic.value("requires");
        if (requires != null) {
            def.setRequires(requires.asStringArray());
        }
        return def;
    }
}
