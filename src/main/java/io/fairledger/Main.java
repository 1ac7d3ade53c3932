package io.fairledger;

import io.quarkus.runtime.annotations.QuarkusMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import io.fairledger.cli.AccountCommand;
import io.fairledger.cli.DlqCommand;
import io.fairledger.cli.ReplayCommand;
import io.fairledger.cli.ReportCommand;
import io.fairledger.cli.ScenarioCommand;
import io.fairledger.cli.ServeCommand;
import io.fairledger.cli.SharesCommand;
import io.fairledger.cli.SimulateCommand;
import io.fairledger.cli.VerifyCommand;

/**
 * The one entry point of the one artifact. {@code serve} boots the Quarkus server; every other subcommand is an
 * offline command that runs the same core without a database or a broker, and never boots Quarkus;
 * {@code report} and {@code shares} ask a running server over HTTP.
 */
@QuarkusMain
@Command(name = "fairledger", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, description = "Long-term fairness and chargeback accounting for shared compute clusters.", subcommands = {
        ServeCommand.class, ScenarioCommand.class, AccountCommand.class, ReplayCommand.class, DlqCommand.class,
        SimulateCommand.class, ReportCommand.class, SharesCommand.class, VerifyCommand.class})
public final class Main {

    public static void main(String... args) {
        int code = new CommandLine(new Main()).execute(args.length == 0 ? new String[]{"--help"} : args);
        System.exit(code);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[]{"fairledger " + (version == null ? "(development build)" : version)};
        }
    }
}
