import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useContext,
  useId,
} from 'react';
import { ApiRequestError } from '../lib/api';

interface FieldControl {
  id: string;
  describedBy?: string;
  invalid: boolean;
}

const FieldContext = createContext<FieldControl | null>(null);

/** A label, a control and its hint or error; the control picks up id and aria attributes itself. */
export function Field({
  label,
  hint,
  error,
  children,
  className,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <FieldContext.Provider
      value={{ id, describedBy: error || hint ? messageId : undefined, invalid: Boolean(error) }}
    >
      <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
        <label htmlFor={id}>{label}</label>
        {children}
        {error ? (
          <p className="field-error" id={messageId} role="alert">
            {error}
          </p>
        ) : (
          hint && (
            <p className="field-hint" id={messageId}>
              {hint}
            </p>
          )
        )}
      </div>
    </FieldContext.Provider>
  );
}

function useFieldProps(id?: string) {
  const field = useContext(FieldContext);
  return {
    id: id ?? field?.id,
    'aria-describedby': field?.describedBy,
    'aria-invalid': field?.invalid || undefined,
  };
}

export function Input(props: InputHTMLAttributes<HTMLInputElement>) {
  const fieldProps = useFieldProps(props.id);
  return <input className="input" {...fieldProps} {...props} />;
}

export function Select(props: SelectHTMLAttributes<HTMLSelectElement>) {
  const fieldProps = useFieldProps(props.id);
  return <select className="input select" {...fieldProps} {...props} />;
}

export function Textarea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const fieldProps = useFieldProps(props.id);
  return <textarea className="input textarea" {...fieldProps} {...props} />;
}

export function Checkbox({ label, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode }) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...props} />
      <span>{label}</span>
    </label>
  );
}

/**
 * The message for one field from an API error: the contract's `param` names the field
 * (`items[0].quantity`), so the form can highlight the control the server refused.
 */
export function fieldError(error: unknown, param: string): string | undefined {
  if (!(error instanceof ApiRequestError)) return undefined;
  const refused = error.fields.find((f) => f.param === param)?.message;
  const message = refused ?? (error.param === param ? error.message.replace(/^.*?: /, '') : undefined);
  return message && message.charAt(0).toUpperCase() + message.slice(1);
}

/** An API error that no single field of the form explains. */
export function formError(error: unknown, params: string[]): string | undefined {
  if (!error) return undefined;
  if (error instanceof ApiRequestError && error.param && params.includes(error.param)) return undefined;
  if (error instanceof ApiRequestError && error.fields.some((f) => params.includes(f.param)))
    return undefined;
  return error instanceof Error ? error.message : String(error);
}
