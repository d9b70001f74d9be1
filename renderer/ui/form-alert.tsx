import { formError } from './form';

/** The API error no field of the form explains, above the form, announced when it appears. */
export function FormAlert({ error, params }: { error: unknown; params: string[] }) {
  const general = formError(error, params);
  if (!general) return null;
  return (
    <div className="notice notice-error" role="alert">
      {general}
    </div>
  );
}
