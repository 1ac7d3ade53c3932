package io.fairledger.integrations.bridgetests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A real YARN application master, run by the NodeManager in its own JVM: it asks for {@code tasks} containers of the
 * given size, runs {@code sleep <seconds>} in each (or, given a file, waits in each until that file exists), releases
 * any surplus and finishes once all tasks completed. Usage:
 * {@code SleepApplication <tasks> <memoryMb> <vcores> <seconds> [<file>]}; the scheduler address comes from the
 * environment variable {@code RM_SCHEDULER_ADDRESS}.
 */
public final class SleepApplication {

    private SleepApplication() {
    }

    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]);
        Resource size = Resource.newInstance(Long.parseLong(args[1]), Integer.parseInt(args[2]));
        String task = args.length > 4 ? "while [ ! -e " + args[4] + " ]; do sleep 0.2; done" : "sleep " + args[3];
        YarnConfiguration conf = new YarnConfiguration();
        conf.set(YarnConfiguration.RM_SCHEDULER_ADDRESS, System.getenv("RM_SCHEDULER_ADDRESS"));
        // a restarted ResourceManager is retried every half second (YARN's default: 30 s)
        conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 500);
        AMRMClient<ContainerRequest> rm = AMRMClient.createAMRMClient();
        rm.init(conf);
        rm.start();
        NMClient nm = NMClient.createNMClient();
        nm.init(conf);
        nm.start();
        rm.registerApplicationMaster("", 0, "");
        for (int i = 0; i < tasks; i++) {
            rm.addContainerRequest(new ContainerRequest(size, null, null, Priority.newInstance(1)));
        }
        java.util.Set<org.apache.hadoop.yarn.api.records.ContainerId> launched = new java.util.HashSet<>();
        int completed = 0;
        while (completed < tasks) {
            var response = rm.allocate(completed / (float) tasks);
            List<Container> surplus = new ArrayList<>();
            for (Container container : response.getAllocatedContainers()) {
                if (launched.size() < tasks) {
                    rm.removeContainerRequest(new ContainerRequest(size, null, null, Priority.newInstance(1)));
                    nm.startContainer(container, ContainerLaunchContext.newInstance(Map.of(), Map.of(),
                            List.of(task), null, null, null));
                    launched.add(container.getId());
                } else {
                    surplus.add(container);
                }
            }
            surplus.forEach(c -> rm.releaseAssignedContainer(c.getId()));
            for (ContainerStatus status : response.getCompletedContainersStatuses()) {
                if (launched.contains(status.getContainerId())) {
                    completed++;
                }
                System.out.println("completed " + status.getContainerId() + " exit " + status.getExitStatus());
            }
            Thread.sleep(200);
        }
        rm.unregisterApplicationMaster(FinalApplicationStatus.SUCCEEDED, "", "");
        nm.stop();
        rm.stop();
    }
}
