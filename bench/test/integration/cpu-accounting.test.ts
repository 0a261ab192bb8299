import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpuTimes, formatCpuTable, perRequest } from '../../src/cpu-accounting';

describe('CPU accounting of a run', () => {
  it("reads a child's CPU time: a child that spins 400 ms of CPU counts at least 350 ms more (absent where /proc is not)", async () => {
    // spins until its own CPU time grew by 400 ms (whatever else shares the cores), prints, then idles until killed
    const spin =
      "const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; const t = cpu(); while (cpu() - t < 400); console.log('spun'); setInterval(() => {}, 1000);";
    const child = spawn(process.execPath, ['-e', spin], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const before = await cpuTimes({ pids: { child: child.pid } });
      await once(child.stdout, 'data');
      const after = await cpuTimes({ pids: { child: child.pid } });
      if (process.platform === 'linux') expect((after.child ?? 0) - (before.child ?? 0)).toBeGreaterThanOrEqual(350);
      else expect(after.child).toBeUndefined();
      expect(after['load generator']).toBeGreaterThan(0);
    } finally {
      child.kill();
    }
  });

  it('divides each process’s CPU by the requests, and tables it with a total', () => {
    const cpu = perRequest(
      { gateway: 100, elasticsearch: 1_000 },
      { gateway: 300, elasticsearch: 1_800, other: 5 },
      200,
    );
    expect(cpu).toEqual({ gateway: 1, elasticsearch: 4 });
    const table = formatCpuTable([{ label: 'via gateway @ 16 conn', cpu }]);
    expect(table.split('\n')[1]).toMatch(/via gateway @ 16 conn\s+1\.00\s+4\.00\s+5\.00$/);
  });

  it("sums a list's processes read at both ends: a backend that exited during the run does not make the figure negative", async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const pids = [child.pid ?? 0, 2 ** 22 + 1];
      const reading = await cpuTimes({ pids: { database: pids } });
      if (process.platform === 'linux')
        expect(Object.keys(reading).filter((k) => k.startsWith('database'))).toHaveLength(1);
    } finally {
      child.kill();
    }
    const cpu = perRequest(
      { 'database#10': 500, 'database#11': 100, gateway: 0 },
      { 'database#11': 300, 'database#12': 50, gateway: 100 },
      100,
    );
    expect(cpu).toEqual({ database: 2, gateway: 1 });
  });
});
