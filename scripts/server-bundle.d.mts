import type { BuildOptions, OutputFile } from 'esbuild';

export const root: string;
export const bundleOptions: BuildOptions;
export function serverExternals(): string[];
export function writeBundles(outputFiles: OutputFile[], outdir: string): void;
