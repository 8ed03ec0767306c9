import { OPTION_FIELDS, type OptionField, type OptionValue } from './options.js';

/**
 * The system's options as form controls, each showing its default until changed. Only what
 * the GM changes goes into the file; setting an option back to its default takes it out.
 */
export function OptionsForm({
  system,
  values,
  onChange,
}: {
  system: string;
  values: Readonly<Record<string, OptionValue>>;
  onChange: (values: Record<string, OptionValue>) => void;
}) {
  const fields = OPTION_FIELDS[system] ?? {};
  const set = (name: string, field: OptionField, value: OptionValue) => {
    const next = { ...values };
    if (JSON.stringify(value) === JSON.stringify(field.default)) delete next[name];
    else next[name] = value;
    onChange(next);
  };
  return (
    <fieldset class="options">
      <legend>Options (house rules and optional rules)</legend>
      {Object.entries(fields).map(([name, field]) => (
        <OptionControl
          key={name}
          name={name}
          field={field}
          value={values[name] ?? field.default}
          onValue={(v) => set(name, field, v)}
        />
      ))}
    </fieldset>
  );
}

function OptionControl({
  name,
  field,
  value,
  onValue,
}: {
  name: string;
  field: OptionField;
  value: OptionValue;
  onValue: (value: OptionValue) => void;
}) {
  switch (field.kind) {
    case 'boolean':
      return (
        <label class="check">
          <input
            type="checkbox"
            name={`option-${name}`}
            checked={value === true}
            onChange={(e) => onValue(e.currentTarget.checked)}
          />{' '}
          {field.label}
        </label>
      );
    case 'choice':
      return (
        <label>
          {field.label}{' '}
          <select
            name={`option-${name}`}
            value={String(value)}
            onChange={(e) => onValue(e.currentTarget.value)}
          >
            {field.choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      );
    case 'number':
      return (
        <label>
          {field.label}{' '}
          <input
            type="number"
            name={`option-${name}`}
            min={field.min}
            max={field.max}
            step={field.step ?? 1}
            value={Number(value)}
            onChange={(e) => onValue(Number(e.currentTarget.value))}
          />
        </label>
      );
    case 'numbers': {
      const list = Array.isArray(value) ? value : field.default;
      return (
        <fieldset class="row">
          <legend>{field.label}</legend>
          {[0, 1, 2].map((i) => (
            <label key={i}>
              Level {i + 1}{' '}
              <input
                type="number"
                name={`option-${name}-${i + 1}`}
                min={field.min}
                max={field.max}
                value={list[i]}
                onChange={(e) =>
                  onValue(list.map((n, j) => (j === i ? Number(e.currentTarget.value) : n)))
                }
              />
            </label>
          ))}
        </fieldset>
      );
    }
    case 'cap': {
      const on = typeof value === 'number';
      return (
        <div class="row">
          <label class="check">
            <input
              type="checkbox"
              name={`option-${name}`}
              checked={on}
              onChange={(e) => onValue(e.currentTarget.checked ? 999 : false)}
            />{' '}
            {field.label}
          </label>
          {on && (
            <label>
              Capped at{' '}
              <input
                type="number"
                name={`option-${name}-at`}
                min={1}
                value={value}
                onChange={(e) => onValue(Number(e.currentTarget.value) || 999)}
              />
            </label>
          )}
        </div>
      );
    }
  }
}
