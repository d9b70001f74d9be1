import { addDays, mondayOf } from './format';
import { navigate, useRoute } from './router';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The week a calendar screen shows, Monday to Sunday, kept in the address (?week=YYYY-MM-DD) so a
 * reload, a bookmark or Back shows the same week.
 */
export function useWeek(today: string) {
  const { path, query } = useRoute();
  const requested = query.get('week');
  const monday = mondayOf(requested && DAY.test(requested) ? requested : today);
  const show = (day: string) => navigate(`${path}?week=${mondayOf(day)}`);
  return {
    monday,
    sunday: addDays(monday, 6),
    previous: () => show(addDays(monday, -7)),
    next: () => show(addDays(monday, 7)),
    thisWeek: () => show(today),
  };
}
