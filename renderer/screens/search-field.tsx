import { Input } from '../ui';

/** A list's search box; the label may be visually hidden where the placeholder says enough. */
export function SearchField({
  id,
  label,
  hideLabel = false,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  hideLabel?: boolean;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <div className="field search">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : undefined}>
        {label}
      </label>
      <Input
        id={id}
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
