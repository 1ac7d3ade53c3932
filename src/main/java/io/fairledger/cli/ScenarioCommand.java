package io.fairledger.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.fairledger.core.scenario.StepScenario;
import io.fairledger.core.scenario.StepScenarioResult;
import io.fairledger.core.scenario.StepScenarioRunner;

/**
 * {@code fairledger scenario --file F --policy MLRF|LTRF [--discount X] [--out file]}: runs a step scenario in the
 * shape of {@code table1.json} (capacity, tenants with weights, newDemand per step, unmet demand carried over) through
 * the grant engine of the accounting core and prints, per tenant per step, {@code totalDemand}, {@code allocation},
 * {@code accumulated}, {@code preempt} and, with a discount, {@code countedAllocation} and {@code countedAccumulated}.
 * Only file and JSON handling live here; every number comes from {@link StepScenarioRunner}. Bad input: a message on
 * stderr and exit code 2.
 */
@Command(name = "scenario", mixinStandardHelpOptions = true, description = "Run a step scenario (LTRF Table 1 shape) through the grant engine and print per-step allocations as JSON.")
public final class ScenarioCommand implements Callable<Integer> {

    /** Exit code for bad input, as picocli uses for bad options. */
    public static final int BAD_INPUT = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--file", required = true, description = "Scenario JSON (capacity, tenants, steps, newDemand, unmetDemandCarriesOver).")
    Path file;

    @Option(names = "--policy", required = true, description = "MLRF (memoryless) or LTRF (long-term).")
    StepScenarioRunner.Policy policy;

    @Option(names = "--discount", description = "Discount rate eta in [0,1] for borrowed resources (LTRF eq. 7); default 1 (none).")
    Double discount;

    @Option(names = "--out", description = "Write the JSON here instead of standard output.")
    Path out;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        try {
            double eta = discount == null ? 1.0 : discount;
            if (!(eta >= 0 && eta <= 1)) {
                throw new IllegalArgumentException("--discount must be in [0,1], got " + discount);
            }
            if (!Files.isReadable(file)) {
                throw new IllegalArgumentException("cannot read scenario file " + file);
            }
            StepScenario scenario = parse(mapper.readTree(file.toFile()));
            StepScenarioResult result = StepScenarioRunner.run(scenario, policy, eta);
            String json = mapper.writeValueAsString(render(mapper, result, discount != null));
            if (out != null) {
                Files.writeString(out, json + System.lineSeparator());
            } else {
                spec.commandLine().getOut().println(json);
                spec.commandLine().getOut().flush();
            }
            return 0;
        } catch (IllegalArgumentException | IOException e) {
            err.println("scenario: " + e.getMessage());
            err.flush();
            return BAD_INPUT;
        }
    }

    /** Reads the {@code table1.json} shape into the core record; every missing or mistyped field is named. */
    static StepScenario parse(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("scenario must be a JSON object");
        }
        double capacity = number(root, "capacity");
        JsonNode tenants = field(root, "tenants");
        if (!tenants.isObject() || tenants.isEmpty()) {
            throw new IllegalArgumentException("'tenants' must be a non-empty object of name -> {\"weight\": w}");
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = tenants.fields(); it.hasNext();) {
            var e = it.next();
            JsonNode w = e.getValue().get("weight");
            weights.put(e.getKey(), w == null ? 1.0 : requireNumber(w, "tenants." + e.getKey() + ".weight"));
        }
        JsonNode stepsNode = field(root, "steps");
        if (!stepsNode.canConvertToInt() || !stepsNode.isIntegralNumber()) {
            throw new IllegalArgumentException("'steps' must be an integer");
        }
        JsonNode demand = field(root, "newDemand");
        if (!demand.isObject()) {
            throw new IllegalArgumentException("'newDemand' must be an object of name -> [demand per step]");
        }
        Map<String, List<Double>> newDemand = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = demand.fields(); it.hasNext();) {
            var e = it.next();
            if (!e.getValue().isArray()) {
                throw new IllegalArgumentException("newDemand." + e.getKey() + " must be an array");
            }
            List<Double> values = new ArrayList<>();
            for (JsonNode v : e.getValue()) {
                values.add(requireNumber(v, "newDemand." + e.getKey()));
            }
            newDemand.put(e.getKey(), values);
        }
        JsonNode carry = root.get("unmetDemandCarriesOver");
        if (carry != null && !carry.isBoolean()) {
            throw new IllegalArgumentException("'unmetDemandCarriesOver' must be true or false");
        }
        return new StepScenario(capacity, weights, stepsNode.intValue(), newDemand,
                carry == null || carry.booleanValue());
    }

    private static JsonNode field(JsonNode root, String name) {
        JsonNode n = root.get(name);
        if (n == null || n.isNull()) {
            throw new IllegalArgumentException("scenario has no '" + name + "'");
        }
        return n;
    }

    private static double number(JsonNode root, String name) {
        return requireNumber(field(root, name), name);
    }

    private static double requireNumber(JsonNode n, String what) {
        if (!n.isNumber()) {
            throw new IllegalArgumentException("'" + what + "' must be a number, got " + n);
        }
        return n.doubleValue();
    }

    static ObjectNode render(ObjectMapper mapper, StepScenarioResult result, boolean withCounted) {
        ObjectNode root = mapper.createObjectNode();
        root.put("policy", result.policy().name());
        root.put("discountRate", result.discountRate());
        root.put("memory", result.policy() == StepScenarioRunner.Policy.LTRF ? "full" : "none");
        put(mapper, root, "totalDemand", result, StepScenarioResult.Rows::totalDemand);
        put(mapper, root, "allocation", result, StepScenarioResult.Rows::allocation);
        put(mapper, root, "accumulated", result, StepScenarioResult.Rows::accumulated);
        put(mapper, root, "preempt", result, StepScenarioResult.Rows::preempt);
        if (withCounted) {
            put(mapper, root, "countedAllocation", result, StepScenarioResult.Rows::countedAllocation);
            put(mapper, root, "countedAccumulated", result, StepScenarioResult.Rows::countedAccumulated);
        }
        return root;
    }

    private static void put(ObjectMapper mapper, ObjectNode root, String name, StepScenarioResult result,
            Function<StepScenarioResult.Rows, List<Double>> column) {
        ObjectNode byTenant = root.putObject(name);
        for (var e : result.tenants().entrySet()) {
            ArrayNode a = byTenant.putArray(e.getKey());
            for (double v : column.apply(e.getValue())) {
                if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                    a.add((long) v);
                } else {
                    a.add(v);
                }
            }
        }
    }

    /** Runs the command on its own, for tests and ad-hoc use. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ScenarioCommand()).execute(args));
    }
}
