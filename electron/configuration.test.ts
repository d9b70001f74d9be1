import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveDataFolder } from './data-folder';
import { choosePort, portInUseMessage } from './port-choice';
import { DEFAULT_SETTINGS, loadSettings, saveSettings } from './settings';

const base = { env: {}, userDataPath: '/home/sam/.config/Shopdesk', cwd: '/work' };

describe('resolveDataFolder', () => {
  it('defaults to <userData>/data', () => {
    expect(resolveDataFolder({ ...base, argv: ['/opt/Shopdesk/shopdesk'] })).toBe(
      '/home/sam/.config/Shopdesk/data',
    );
  });

  it('takes SHOPDESK_DATA_DIR, and --data-dir over it, relative to the working directory', () => {
    const env = { SHOPDESK_DATA_DIR: '/srv/shop' };
    expect(resolveDataFolder({ ...base, env, argv: ['app'] })).toBe('/srv/shop');
    expect(resolveDataFolder({ ...base, env, argv: ['app', '--data-dir', 'mine'] })).toBe('/work/mine');
    expect(resolveDataFolder({ ...base, env, argv: ['app', '--data-dir=/tmp/x'] })).toBe('/tmp/x');
  });
});

describe('choosePort', () => {
  it('asks for a free port unless one is configured', () => {
    expect(choosePort(DEFAULT_SETTINGS)).toBe(0);
    expect(choosePort({ port: 4400 })).toBe(4400);
  });

  it('names the taken port and how to change it', () => {
    const text = portInUseMessage(4400, '/cfg/settings.json');
    expect(text.message).toBe('Port 4400 is already in use by another program.');
    expect(text.detail).toContain('/cfg/settings.json');
    expect(text.detail).toContain('"port"');
  });
});

describe('settings', () => {
  const folders: string[] = [];
  const file = () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'shopdesk-settings-'));
    folders.push(folder);
    return path.join(folder, 'settings.json');
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('uses defaults when there is no file', () => {
    expect(loadSettings(file())).toEqual({
      settings: { port: null, updates: { enabled: true, feedUrl: null } },
      problem: null,
    });
  });

  it('reads a partial file and fills in the rest', () => {
    const settingsFile = file();
    writeFileSync(settingsFile, JSON.stringify({ port: 4400, updates: { enabled: false } }));
    expect(loadSettings(settingsFile).settings).toEqual({
      port: 4400,
      updates: { enabled: false, feedUrl: null },
    });
  });

  it('ignores a bad file and says why', () => {
    const settingsFile = file();
    writeFileSync(
      settingsFile,
      JSON.stringify({ port: 70000, updates: { feedUrl: 'ftp://x' }, colour: 'red' }),
    );
    const loaded = loadSettings(settingsFile);
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(loaded.problem).toContain('port');
    expect(loaded.problem).toContain('updates.feedUrl');

    writeFileSync(settingsFile, '{ "port": ');
    expect(loadSettings(settingsFile).problem).toContain('not valid JSON');
  });

  it('saves what it loads', () => {
    const settingsFile = file();
    const settings = { port: 4401, updates: { enabled: false, feedUrl: 'https://updates.example/feed' } };
    saveSettings(settingsFile, settings);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(settings);
    expect(loadSettings(settingsFile)).toEqual({ settings, problem: null });
  });
});
